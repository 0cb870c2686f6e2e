import { X509Certificate } from 'node:crypto'
import type { DetailedPeerCertificate } from 'node:tls'

// The parts of a server certificate a mail admin acts on: names, issuer, validity,
// key, and the chain as the server sent it.

export interface CertificateSummary {
  subject: string | null
  issuer: string | null
  names: string[]
  valid_from: string
  valid_to: string
  days_remaining: number
  expired: boolean
  self_signed: boolean
  key_type: string | null
  key_bits: number | null
  fingerprint_sha256: string
  serial_number: string
  chain: Array<{ subject: string | null; issuer: string | null }>
}

const cn = (name: Record<string, unknown> | undefined): string | null => {
  if (!name) return null
  const value = name.CN ?? name.O
  return Array.isArray(value) ? String(value[0]) : value === undefined ? null : String(value)
}

/**
 * Signed by its own key. Not x509.checkIssued(x509): OpenSSL's issuer check also
 * wants keyCertSign in the key usage, which a self-signed server certificate
 * (a leaf, CA:FALSE) often lacks, so it would not count as self-signed.
 */
function selfSigned(x509: X509Certificate): boolean {
  try {
    return x509.subject === x509.issuer && x509.verify(x509.publicKey)
  } catch {
    return false
  }
}

export function summarizeCertificate(cert: DetailedPeerCertificate, now: number): CertificateSummary {
  const x509 = new X509Certificate(cert.raw)
  const validTo = new Date(cert.valid_to)
  const key = x509.publicKey
  const details = key.asymmetricKeyDetails
  const chain: CertificateSummary['chain'] = []
  let current: DetailedPeerCertificate | undefined = cert
  for (let i = 0; current && i < 10; i++) {
    chain.push({ subject: cn(current.subject as unknown as Record<string, unknown>), issuer: cn(current.issuer as unknown as Record<string, unknown>) })
    if (!current.issuerCertificate || current.issuerCertificate === current || current.issuerCertificate.fingerprint256 === current.fingerprint256) break
    current = current.issuerCertificate
  }
  return {
    subject: cn(cert.subject as unknown as Record<string, unknown>),
    issuer: cn(cert.issuer as unknown as Record<string, unknown>),
    names: (cert.subjectaltname ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.startsWith('DNS:'))
      .map((s) => s.slice(4)),
    valid_from: new Date(cert.valid_from).toISOString(),
    valid_to: validTo.toISOString(),
    days_remaining: Math.floor((validTo.getTime() - now) / 86_400_000),
    expired: validTo.getTime() < now,
    self_signed: selfSigned(x509),
    key_type: key.asymmetricKeyType ?? null,
    key_bits: details?.modulusLength ?? (details?.namedCurve === 'prime256v1' ? 256 : details?.namedCurve === 'secp384r1' ? 384 : null),
    fingerprint_sha256: cert.fingerprint256,
    serial_number: cert.serialNumber,
    chain,
  }
}
