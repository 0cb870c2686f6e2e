import { isApiError } from '../../runtime/errors.ts'
import type { ApiError } from '../../runtime/errors.ts'
import { TargetBlockedError } from '../../runtime/net/target-blocked-error.ts'
import type { WebClient } from './web-client.ts'
import { webFetch } from './web-fetch.ts'
import type { HttpVersion, WebResponse } from './web-response.ts'
import { headerValue } from './web-response.ts'

// A redirect chain walked hop by hop. Every hop is its own webFetch, so every
// Location is resolved and vetted by the guard again: a redirect to a private or
// metadata address ends the chain as a refused hop (no socket is opened), and is
// reported, not thrown. Only the first hop throws — that target the caller named.

export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

export type ChainStop = 'final' | 'loop' | 'too_many_redirects' | 'blocked' | 'error' | 'invalid_location'

export interface HopError {
  reason: string
  message: string
}

export interface Hop {
  url: string
  status: number | null
  location: string | null
  /** Location resolved against the hop's URL; null when the hop is not a redirect. */
  next_url: string | null
  http_version: HttpVersion | null
  address: string | null
  time_ms: number | null
  /** This hop sends an http:// request on to https://. */
  upgrade_to_https: boolean
  /** This hop sends an https:// request on to http://. */
  downgrade_to_http: boolean
  /** The next URL is on another host name (a port change alone is not). */
  cross_host: boolean
  /** The guard refused this hop's address: no connection was made. */
  blocked: boolean
  error: HopError | null
}

/** Where the first request went instead, when a bare host's https was unreachable. */
export interface SchemeFallback {
  from_url: string
  to_url: string
  reason: string
  message: string
}

export interface Chain {
  hops: Hop[]
  stop: ChainStop
  stop_message: string | null
  /** The last response received (the final page, or the last redirect before a failure). */
  final: WebResponse | null
  fallback: SchemeFallback | null
}

export interface ChainOptions {
  /** Requests at most (a chain of 10 hops follows 9 redirects). */
  maxHops: number
  maxBytes: number
  /** Time for the whole chain; each hop gets what is left, up to hopTimeoutMs. */
  budgetMs: number
  hopTimeoutMs: number
  signal?: AbortSignal
  headers?: Record<string, string>
}

const hostOf = (url: string) => new URL(url).hostname

function hopOf(url: string, res: WebResponse): Hop {
  const location = REDIRECT_STATUSES.has(res.status) ? headerValue(res.headers, 'location') : null
  let next: string | null = null
  if (location !== null) {
    try {
      next = new URL(location, url).href
    } catch {
      next = null
    }
  }
  const from = new URL(url).protocol
  const to = next ? new URL(next).protocol : null
  return {
    url,
    status: res.status,
    location,
    next_url: next,
    http_version: res.http_version,
    address: res.address,
    time_ms: res.timing.total_ms,
    upgrade_to_https: from === 'http:' && to === 'https:',
    downgrade_to_http: from === 'https:' && to === 'http:',
    cross_host: next !== null && hostOf(next) !== hostOf(url),
    blocked: false,
    error: null,
  }
}

function failedHop(url: string, error: HopError, blockedAddress: string | null = null, blocked = false): Hop {
  return {
    url,
    status: null,
    location: null,
    next_url: null,
    http_version: null,
    address: blockedAddress,
    time_ms: null,
    upgrade_to_https: false,
    downgrade_to_http: false,
    cross_host: false,
    blocked,
    error,
  }
}

function hopFromError(url: string, error: ApiError): Hop {
  if (error instanceof TargetBlockedError) return failedHop(url, { reason: 'blocked', message: error.message }, error.refused[0]?.address ?? null, true)
  return failedHop(url, { reason: String(error.details.reason ?? error.code), message: error.message })
}

/** Connection-level failures of https worth retrying over http (not DNS, not a refused target). */
function fallsBack(error: unknown): boolean {
  if (!isApiError(error) || error instanceof TargetBlockedError) return false
  return error.details.upstream === 'web' && (error.details.phase === 'connect' || error.details.phase === 'tls')
}

/**
 * Walks from the first of `startUrls` that answers (the later ones are fallbacks
 * for a failure to connect to the earlier). Errors of the first request throw.
 */
export async function walkChain(client: WebClient, startUrls: readonly string[], o: ChainOptions): Promise<Chain> {
  const deadline = performance.now() + o.budgetMs
  const remaining = () => Math.min(o.hopTimeoutMs, Math.floor(deadline - performance.now()))
  const fetchOptions = (timeoutMs: number) => ({
    timeoutMs,
    maxBytes: o.maxBytes,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.headers ? { headers: o.headers } : {}),
  })

  let fallback: SchemeFallback | null = null
  let first: WebResponse | undefined
  let url = startUrls[0]!
  for (let i = 0; i < startUrls.length; i++) {
    url = startUrls[i]!
    try {
      first = await webFetch(client, url, fetchOptions(Math.max(1, remaining())))
      break
    } catch (error) {
      const next = startUrls[i + 1]
      if (next === undefined || !fallsBack(error) || remaining() < 250) throw error
      fallback = { from_url: url, to_url: next, reason: String((error as ApiError).details.reason), message: (error as Error).message }
    }
  }

  const hops: Hop[] = [hopOf(url, first!)]
  let final: WebResponse = first!
  const seen = new Set([url])
  for (;;) {
    const hop = hops.at(-1)!
    if (hop.status !== null && REDIRECT_STATUSES.has(hop.status) && hop.location === null) {
      return { hops, stop: 'final', stop_message: `HTTP ${hop.status} without a Location header`, final, fallback }
    }
    if (hop.location === null) return { hops, stop: 'final', stop_message: null, final, fallback }
    const next = hop.next_url
    if (next === null || !/^https?:$/.test(new URL(next).protocol)) {
      return { hops, stop: 'invalid_location', stop_message: `Location "${hop.location}" is not an http(s) URL`, final, fallback }
    }
    if (seen.has(next)) {
      return { hops, stop: 'loop', stop_message: `${next} was already visited: a redirect loop`, final, fallback }
    }
    if (hops.length >= o.maxHops) {
      return { hops, stop: 'too_many_redirects', stop_message: `Still redirecting after ${o.maxHops} requests`, final, fallback }
    }
    const left = remaining()
    if (left < 1) {
      hops.push(failedHop(next, { reason: 'timeout', message: 'The time for the redirect chain ran out' }))
      return { hops, stop: 'error', stop_message: 'The time for the redirect chain ran out', final, fallback }
    }
    seen.add(next)
    try {
      const res = await webFetch(client, next, fetchOptions(left))
      hops.push(hopOf(next, res))
      final = res
    } catch (error) {
      if (!isApiError(error)) throw error
      const failed = hopFromError(next, error)
      hops.push(failed)
      return { hops, stop: failed.blocked ? 'blocked' : 'error', stop_message: error.message, final, fallback }
    }
  }
}
