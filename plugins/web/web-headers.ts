import type { z } from 'zod'
import type { WebCallOptions } from './web-call.ts'
import { openSite, toTarget } from './web-call.ts'
import type { WebClient } from './web-client.ts'
import type { WebHeadersData } from '../../registry/web/schemas/web-data.ts'
import type { WebTarget } from '../../registry/web/schemas/web-target.ts'
import { targetLabel } from './target-url.ts'
import { headerValue } from './web-response.ts'

// /api/web/headers: what a browser gets from the site — the final response after
// redirects, its headers in order, the HTTP version ALPN chose, and where the
// time went on the final request. The body is read up to a limit and then the
// socket is closed, so a huge page costs the limit, not its size.

export const HEADERS_READ_LIMIT = 256 * 1024

export type WebHeaders = z.infer<typeof WebHeadersData>

export async function webHeaders(client: WebClient, host: string | WebTarget, o: WebCallOptions = {}): Promise<WebHeaders> {
  const target = toTarget(host)
  const chain = await openSite(client, target, 'secure-first', {
    ...o,
    maxBytes: HEADERS_READ_LIMIT,
    // Browsers' defaults: the headers a site sends depend on what it thinks is asking.
    headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'en' },
  })
  const res = chain.final!
  const length = Number(headerValue(res.headers, 'content-length') ?? Number.NaN)
  const lastOk = chain.hops.findLastIndex((h) => h.status !== null)
  return {
    host: targetLabel(target),
    url: chain.hops[0]!.url,
    final_url: res.url,
    fallback: chain.fallback,
    status: res.status,
    status_text: res.status_text,
    http_version: res.http_version,
    address: res.address,
    port: res.port,
    headers: res.headers,
    header_count: res.headers.length,
    // Every hop but the one whose response is shown; failed hops after it stay listed.
    redirects: chain.hops.filter((_, i) => i !== lastOk),
    stopped: chain.stop,
    stop_message: chain.stop_message,
    timing: res.timing,
    chain_ms: Math.round(chain.hops.reduce((sum, h) => sum + (h.time_ms ?? 0), 0) * 10) / 10,
    body: {
      bytes_read: res.body.length,
      truncated: res.truncated,
      read_limit: HEADERS_READ_LIMIT,
      content_length: Number.isInteger(length) && length >= 0 ? length : null,
      content_type: headerValue(res.headers, 'content-type'),
      error: res.body_error,
    },
    tls: res.tls,
  }
}
