import { X509Certificate } from 'node:crypto'
import { rootCertificates } from 'node:tls'

// The roots chains are judged against: Node's bundled Mozilla roots (what the
// guarded network's TLS trusts) plus INFRALENS_EXTRA_CA_FILE. Parsed once, on
// first use, and indexed by subject for issuer lookups.

export type AnchorSource = 'system' | 'extra'

export interface TrustStore {
  /** PEMs for node:tls `ca` (undefined: Node's defaults, nothing extra configured). */
  ca: string[] | undefined
  issuersOf(cert: X509Certificate): Array<{ cert: X509Certificate; source: AnchorSource }>
  /** Whether this exact certificate is a trust anchor, and where it comes from. */
  sourceOf(cert: X509Certificate): AnchorSource | null
}

function splitPem(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
}

export function createTrustStore(extraPem: string | undefined): TrustStore {
  const extra = extraPem ? splitPem(extraPem) : []
  let index: { bySubject: Map<string, Array<{ cert: X509Certificate; source: AnchorSource }>>; byFingerprint: Map<string, AnchorSource> } | null = null
  const load = () => {
    if (index) return index
    const bySubject = new Map<string, Array<{ cert: X509Certificate; source: AnchorSource }>>()
    const byFingerprint = new Map<string, AnchorSource>()
    const add = (pem: string, source: AnchorSource) => {
      let cert: X509Certificate
      try {
        cert = new X509Certificate(pem)
      } catch {
        return
      }
      const list = bySubject.get(cert.subject) ?? []
      list.push({ cert, source })
      bySubject.set(cert.subject, list)
      byFingerprint.set(cert.fingerprint256, source)
    }
    for (const pem of rootCertificates) add(pem, 'system')
    for (const pem of extra) add(pem, 'extra')
    index = { bySubject, byFingerprint }
    return index
  }
  return {
    ca: extra.length ? [...rootCertificates, ...extra] : undefined,
    issuersOf(cert) {
      return (load().bySubject.get(cert.issuer) ?? []).filter((c) => cert.checkIssued(c.cert))
    },
    sourceOf(cert) {
      return load().byFingerprint.get(cert.fingerprint256) ?? null
    },
  }
}
