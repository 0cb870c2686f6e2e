import { UpstreamError, isApiError } from '../../runtime/errors.ts'
import type { GuardedNetwork, HttpResponse } from '../../runtime/net/guarded-network.ts'
import { TargetBlockedError } from '../../runtime/net/target-blocked-error.ts'

// The crt.sh JSON search (`/?q=<identity>&output=json`), through the guarded
// network under the "crtsh" circuit breaker. crt.sh is slow and often
// overloaded: every way it fails — a timeout, a 5xx, an HTML error page with
// status 200, JSON cut off mid-way — is a 502 naming crt.sh and the reason.

export interface CrtshQuery {
  /** The identity searched: a domain, or "%.domain" for its subdomains too. */
  q: string
  /** Ask crt.sh to leave expired certificates out (it filters server-side). */
  excludeExpired: boolean
}

export interface CrtshClientOptions {
  network: GuardedNetwork
  baseUrl: string
  timeoutMs: number
}

export type CrtshClient = (query: CrtshQuery, signal: AbortSignal) => Promise<unknown[]>

const MAX_BYTES = 32 * 1024 * 1024

export function crtshUrl(baseUrl: string, query: CrtshQuery): string {
  const url = new URL(baseUrl)
  if (url.pathname === '') url.pathname = '/'
  url.searchParams.set('q', query.q)
  url.searchParams.set('output', 'json')
  if (query.excludeExpired) url.searchParams.set('exclude', 'expired')
  return url.href
}

export function createCrtshClient(o: CrtshClientOptions): CrtshClient {
  return async (query, signal) => {
    const url = crtshUrl(o.baseUrl, query)
    let res: HttpResponse
    try {
      res = await o.network.request(url, { headers: { accept: 'application/json' }, timeoutMs: o.timeoutMs, signal, maxBytes: MAX_BYTES, upstream: 'crtsh' })
    } catch (error) {
      // The URL is configuration, not the caller's input: a refused target is our upstream failing.
      if (error instanceof TargetBlockedError) throw new UpstreamError('crtsh', 'blocked', `Refusing to query crt.sh at ${error.host}: ${error.refused[0]?.reason ?? 'not a public address'}.`, { url })
      if (isApiError(error) && error.details.upstream !== 'crtsh') throw new UpstreamError('crtsh', 'network', `Could not reach crt.sh: ${error.message}`, { url })
      if (isApiError(error)) throw error
      throw new UpstreamError('crtsh', 'network', `Could not query crt.sh: ${(error as Error).message}`, { url })
    }
    if (res.status !== 200) {
      throw new UpstreamError('crtsh', 'http_error', `crt.sh answered HTTP ${res.status}${res.status === 429 ? ' (rate limited)' : res.status >= 500 ? ' (it is overloaded or down)' : ''}.`, {
        url,
        status: res.status,
      })
    }
    let body: unknown
    try {
      body = JSON.parse(res.body.toString('utf8'))
    } catch {
      const type = res.headers['content-type'] ?? null
      throw new UpstreamError('crtsh', 'bad_response', 'crt.sh did not answer with JSON (an error page, or an answer cut off mid-way).', { url, status: res.status, content_type: type })
    }
    if (!Array.isArray(body)) throw new UpstreamError('crtsh', 'bad_response', 'crt.sh answered JSON that is not a list of log entries.', { url, status: res.status })
    return body
  }
}
