import { brotliDecompressSync, constants as zlib, gunzipSync, inflateSync } from 'node:zlib'
import type { WebResponse } from './web-response.ts'
import { headerValue } from './web-response.ts'

// A text body (robots.txt, security.txt) as UTF-8. Text files are asked for with
// Accept-Encoding: identity, but some servers compress anyway; the decoded size
// is bounded like the download (a small gzip can inflate to gigabytes), and a
// cut-off compressed body decodes as far as it goes.

export function bodyText(res: WebResponse, maxBytes: number): { text: string; truncated: boolean } {
  const encoding = (headerValue(res.headers, 'content-encoding') ?? '').trim().toLowerCase()
  let bytes = res.body
  let truncated = res.truncated
  const options = { maxOutputLength: maxBytes, finishFlush: zlib.Z_SYNC_FLUSH }
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') bytes = gunzipSync(bytes, options)
    else if (encoding === 'deflate') bytes = inflateSync(bytes, options)
    else if (encoding === 'br') bytes = brotliDecompressSync(bytes, { maxOutputLength: maxBytes })
  } catch {
    // Over the bound or corrupt: nothing readable to offer.
    bytes = Buffer.alloc(0)
    truncated = true
  }
  if (bytes.length > maxBytes) {
    bytes = bytes.subarray(0, maxBytes)
    truncated = true
  }
  return { text: bytes.toString('utf8'), truncated }
}
