import { NotFoundError, UpstreamError, isApiError } from '../../runtime/errors.ts'
import type { GuardedNetwork, HttpResponse } from '../../runtime/net/guarded-network.ts'
import { TargetBlockedError } from '../../runtime/net/target-blocked-error.ts'
import type { RawObject } from '../../runtime/raw-json.ts'
import { int, obj, str, strings } from '../../runtime/raw-json.ts'

// One RDAP query: GET with the RDAP media type, redirects followed (RFC 7480 §5.2:
// RIRs redirect for space another RIR now holds) with every hop vetted by the
// guard, and every way it can fail mapped to the runtime's errors:
//   404 (or an error body with errorCode 404)  -> 404 not_found
//   429, 5xx, other non-2xx                     -> 502 http_error, with the status
//   not JSON / not an RDAP object               -> 502 bad_response
//   timeout, reset                              -> 502 timeout / reset (from the guard)
//   a target the guard refuses                  -> 502 blocked (we picked it, not the caller)

export const RDAP_ACCEPT = 'application/rdap+json, application/json;q=0.9'
const MAX_REDIRECTS = 3
const MAX_BYTES = 4 * 1024 * 1024

export interface RdapFetchOptions {
  signal?: AbortSignal
  timeoutMs: number
  /** What was asked, for messages: "domain google.com". */
  what: string
}

export interface RdapDocument {
  /** The URL that answered (after redirects). */
  url: string
  redirects: string[]
  body: RawObject
}

const isRedirect = (status: number) => status === 301 || status === 302 || status === 303 || status === 307 || status === 308

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

async function send(network: GuardedNetwork, url: string, o: RdapFetchOptions): Promise<HttpResponse> {
  try {
    return await network.request(url, {
      headers: { accept: RDAP_ACCEPT },
      timeoutMs: o.timeoutMs,
      maxBytes: MAX_BYTES,
      upstream: 'rdap',
      ...(o.signal ? { signal: o.signal } : {}),
    })
  } catch (error) {
    if (error instanceof TargetBlockedError) {
      // The URL came from a bootstrap file or another server, not from the caller:
      // our upstream pointed somewhere we will not go. That is an upstream failure.
      throw new UpstreamError('rdap', 'blocked', `Refusing to query the RDAP server at ${error.host}: ${error.refused[0]?.reason ?? 'not a public address'}.`, {
        url,
        host: error.host,
        refused: error.refused.map((r) => ({ ...r })),
      })
    }
    if (error instanceof UpstreamError && error.details.upstream !== 'rdap') {
      // Resolving the RDAP server's name failed: still the RDAP lookup that failed.
      throw new UpstreamError('rdap', 'network', `Could not reach the RDAP server ${hostOf(url)}: ${error.message}`, { url, cause: { ...error.details } })
    }
    if (isApiError(error)) throw error
    throw new UpstreamError('rdap', 'network', `Could not query ${hostOf(url)}: ${(error as Error).message}`, { url })
  }
}

function parseBody(res: HttpResponse): RawObject | null {
  try {
    return obj(JSON.parse(res.body.toString('utf8')))
  } catch {
    return null
  }
}

function errorInfo(body: RawObject | null): Record<string, unknown> {
  if (!body) return {}
  const title = str(body.title)
  const description = strings(body.description)
  return title || description.length ? { rdap_error: { title, description } } : {}
}

export async function fetchRdap(network: GuardedNetwork, url: string, o: RdapFetchOptions): Promise<RdapDocument> {
  const redirects: string[] = []
  let current = url
  for (;;) {
    const res = await send(network, current, o)
    if (isRedirect(res.status)) {
      const location = typeof res.headers.location === 'string' ? res.headers.location : null
      let next: URL | null = null
      try {
        next = location ? new URL(location, current) : null
      } catch {
        next = null
      }
      if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
        throw new UpstreamError('rdap', 'bad_response', `${hostOf(current)} redirected the ${o.what} query without a usable Location.`, { url: current, status: res.status })
      }
      redirects.push(current)
      if (redirects.length > MAX_REDIRECTS || redirects.includes(next.href)) {
        throw new UpstreamError('rdap', 'bad_response', `Too many RDAP redirects for ${o.what} (more than ${MAX_REDIRECTS}, or a loop).`, { url: current, redirects })
      }
      current = next.href
      continue
    }
    const body = parseBody(res)
    const bodyCode = body ? int(body.errorCode) : null
    if (res.status === 404 || (res.status === 200 && bodyCode === 404)) {
      throw new NotFoundError(`The registry has no ${o.what} (RDAP 404 from ${hostOf(current)}).`, { upstream: 'rdap', url: current, status: 404, ...errorInfo(body) })
    }
    if (res.status < 200 || res.status > 299 || bodyCode !== null) {
      const status = res.status >= 200 && res.status <= 299 && bodyCode !== null ? bodyCode : res.status
      const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined
      const why = status === 429 ? 'is rate limiting us' : status >= 500 ? 'failed' : 'refused the query'
      throw new UpstreamError('rdap', 'http_error', `The RDAP server ${hostOf(current)} ${why} (HTTP ${status}) for ${o.what}.`, {
        url: current,
        status,
        ...(retryAfter ? { retry_after: retryAfter } : {}),
        ...errorInfo(body),
      })
    }
    if (!body) {
      const type = res.headers['content-type'] ?? null
      throw new UpstreamError('rdap', 'bad_response', `The RDAP server ${hostOf(current)} did not answer the ${o.what} query with a JSON object.`, {
        url: current,
        status: res.status,
        content_type: type,
      })
    }
    return { url: current, redirects, body }
  }
}
