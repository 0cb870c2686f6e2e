import { readFile, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { GuardedNetwork } from '../../../runtime/net/guarded-network.ts'

// Where VRPs come from (INFRALENS_VRP_URL): an http(s) URL, fetched through the
// guarded network like every upstream, or a local file (a path or file:// URL),
// e.g. the output of a validator running beside the service. Both answer
// "unchanged" cheaply on refresh: HTTP with If-None-Match / If-Modified-Since,
// a file by its modification time.

export interface Validators {
  etag: string | null
  lastModified: string | null
}

export type Fetched = { changed: false } | { changed: true; body: Buffer; validators: Validators }

export interface VrpSource {
  /** The location as configured, for answers and logs. */
  location: string
  kind: 'http' | 'file'
  fetch(previous: Validators | null, signal: AbortSignal): Promise<Fetched>
}

/** A full export is 50-100 MB of JSON today; leave room for growth, refuse the absurd. */
const MAX_BYTES = 512 * 1024 * 1024

export function vrpSource(location: string, network: GuardedNetwork, timeoutMs: number): VrpSource {
  if (/^https?:\/\//i.test(location)) {
    return {
      location,
      kind: 'http',
      async fetch(previous, signal) {
        const headers: Record<string, string> = { accept: 'application/json' }
        if (previous?.etag) headers['if-none-match'] = previous.etag
        if (previous?.lastModified) headers['if-modified-since'] = previous.lastModified
        const res = await network.request(location, { headers, timeoutMs, maxBytes: MAX_BYTES, upstream: 'rpki', signal })
        if (res.status === 304) return { changed: false }
        if (res.status !== 200) throw new Error(`${location} answered HTTP ${res.status}`)
        const header = (name: string) => (typeof res.headers[name] === 'string' ? (res.headers[name] as string) : null)
        return { changed: true, body: res.body, validators: { etag: header('etag'), lastModified: header('last-modified') } }
      },
    }
  }
  const path = location.startsWith('file:') ? fileURLToPath(location) : resolve(location)
  return {
    location,
    kind: 'file',
    async fetch(previous, signal) {
      const info = await stat(path)
      const mtime = info.mtime.toISOString()
      if (previous?.lastModified === mtime) return { changed: false }
      if (info.size > MAX_BYTES) throw new Error(`${path} is ${info.size} bytes, more than ${MAX_BYTES}`)
      return { changed: true, body: await readFile(path, { signal }), validators: { etag: null, lastModified: mtime } }
    },
  }
}
