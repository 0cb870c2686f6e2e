import type { CertificateDetails } from './certificate-details.ts'
import type { TlsTarget } from '../../registry/tls/schemas/host-param.ts'

// Does the certificate name the host? As browsers decide it (RFC 6125 and the
// CA/Browser Forum rules): only subjectAltName counts, the subject CN is
// ignored; a wildcard is a whole leftmost label ("*.example.com") standing for
// exactly one label, never for the parent name, never for two labels, never in
// a public-suffix-like position ("*.com"), never partial ("w*.example.com");
// an IP address matches only an iPAddress entry, never a DNS name.

export interface HostnameMatch {
  host: string
  matches: boolean
  /** The SAN entry that matched. */
  matched_by: string | null
  method: 'dns' | 'wildcard' | 'ip' | null
  /** Why it does not match, in words. */
  reason: string | null
}

function wildcardMatches(pattern: string, host: string): boolean {
  if (!pattern.startsWith('*.')) return false
  const base = pattern.slice(2)
  if (base.split('.').length < 2 || base.includes('*')) return false
  if (!host.endsWith(`.${base}`)) return false
  const label = host.slice(0, -(base.length + 1))
  return label.length > 0 && !label.includes('.')
}

export function matchHostname(target: TlsTarget, cert: CertificateDetails): HostnameMatch {
  const host = target.host
  const base = { host, matches: false, matched_by: null, method: null } as const
  if (target.kind !== 'name') {
    const hit = cert.sans.ip.find((ip) => ip === host)
    if (hit) return { ...base, matches: true, matched_by: hit, method: 'ip', reason: null }
    return { ...base, reason: cert.sans.ip.length ? `${host} is not among the certificate's IP addresses (${cert.sans.ip.join(', ')})` : `the certificate names no IP addresses, so it cannot be valid for ${host}` }
  }
  const names = cert.sans.dns.map((n) => n.toLowerCase())
  if (names.length === 0) {
    return { ...base, reason: `the certificate has no DNS names in subjectAltName (its CN "${cert.subject.common_name ?? ''}" is ignored by browsers)` }
  }
  const exact = names.find((n) => n === host)
  if (exact) return { ...base, matches: true, matched_by: exact, method: 'dns', reason: null }
  const wild = names.find((n) => wildcardMatches(n, host))
  if (wild) return { ...base, matches: true, matched_by: wild, method: 'wildcard', reason: null }
  const near = names.find((n) => n.startsWith('*.') && host.endsWith(n.slice(1)))
  const why = near ? ` ("${near}" covers exactly one label, not ${host})` : ''
  return { ...base, reason: `${host} is not among the certificate's names (${names.slice(0, 10).join(', ')}${names.length > 10 ? ', …' : ''})${why}` }
}
