import { isApiError } from '../../runtime/errors.ts'
import type { GuardedNetwork } from '../../runtime/net/guarded-network.ts'
import type { TlsTarget } from '../../registry/tls/schemas/host-param.ts'

// The Strict-Transport-Security header (RFC 6797) of one HTTPS GET to the
// target, through the guarded network, to the address the rest of the analysis
// used (a second lookup could land on another server of a round-robin name).
// Browsers only honour HSTS received over a connection without certificate
// errors; the request verifies the certificate against the analysis's own trust
// store, so a host the analysis calls untrusted reports the header unchecked.

export interface Hsts {
  checked: boolean
  /** Why it could not be checked (certificate errors, no HTTP on the port, ...). */
  error: string | null
  status: number | null
  header: string | null
  present: boolean
  max_age: number | null
  include_subdomains: boolean
  preload: boolean
  /** max-age of at least 180 days (the A+ and preload-list threshold is one year for preload). */
  long_max_age: boolean
}

export const HSTS_MIN_MAX_AGE = 15_552_000 // 180 days

export function parseHsts(header: string): Pick<Hsts, 'max_age' | 'include_subdomains' | 'preload'> {
  let maxAge: number | null = null
  let includeSubdomains = false
  let preload = false
  for (const part of header.split(';')) {
    const [rawName, ...rest] = part.split('=')
    const name = rawName?.trim().toLowerCase()
    const value = rest.join('=').trim().replace(/^"(.*)"$/, '$1')
    if (name === 'max-age' && /^\d+$/.test(value) && maxAge === null) maxAge = Number(value)
    else if (name === 'includesubdomains') includeSubdomains = true
    else if (name === 'preload') preload = true
  }
  return { max_age: maxAge, include_subdomains: includeSubdomains, preload }
}

export interface HstsFetch {
  /** The vetted address the analysis pinned the host to. */
  address: string
  /** Trusted roots (undefined: the guarded network's). */
  ca: string[] | undefined
  timeoutMs: number
}

export async function fetchHsts(network: GuardedNetwork, target: TlsTarget, how: HstsFetch, signal: AbortSignal): Promise<Hsts> {
  const host = target.kind === 'ipv6' ? `[${target.host}]` : target.host
  const url = `https://${host}${target.port === 443 ? '' : `:${target.port}`}/`
  const none: Hsts = { checked: false, error: null, status: null, header: null, present: false, max_age: null, include_subdomains: false, preload: false, long_max_age: false }
  try {
    const res = await network.request(url, { method: 'GET', address: how.address, ...(how.ca ? { ca: how.ca } : {}), timeoutMs: how.timeoutMs, signal, maxBytes: 4 * 1024 * 1024, headers: { accept: 'text/html,*/*' } })
    const raw = res.headers['strict-transport-security']
    const header = Array.isArray(raw) ? (raw[0] ?? null) : (raw ?? null)
    if (!header) return { ...none, checked: true, status: res.status }
    const parsed = parseHsts(header)
    return {
      ...none,
      checked: true,
      status: res.status,
      header,
      present: parsed.max_age !== null,
      ...parsed,
      long_max_age: (parsed.max_age ?? 0) >= HSTS_MIN_MAX_AGE,
    }
  } catch (error) {
    if (isApiError(error) && error.status === 400) throw error
    const cause = (error as Error).message
    return { ...none, error: cause }
  }
}
