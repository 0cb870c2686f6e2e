import { X509Certificate } from 'node:crypto'
import { parseCertificate } from './certificate-details.ts'
import { LEGACY_SUITES } from './cipher-suites.ts'
import { handshakeWith } from './connection.ts'
import type { Handshake } from './handshake.ts'
import type { TlsTarget } from '../../registry/tls/schemas/host-param.ts'
import { matchHostname } from './hostname.ts'
import type { ServedChain } from './probe.ts'
import { probeServedChain } from './probe.ts'
import type { Reached, TlsSettings } from './target.ts'
import { onStarttlsPort, reach, targetFields } from './target.ts'
import type { StarttlsProtocol } from '../../registry/tls/schemas/starttls-param.ts'

// GET /api/tls/certificate/{host}: the leaf and the chain exactly as served.
// node:tls reorders the chain and drops what it does not use, so the served
// list comes from a probe of our own (probe.ts, decrypting TLS 1.3); only when
// that probe gets nothing readable is the handshake's chain shown instead.

export interface ServedCertificates {
  handshake: Handshake
  certificates: Buffer[]
  source: 'served' | 'handshake'
  served: ServedChain | null
}

export async function servedCertificates(settings: TlsSettings, r: Reached, signal: AbortSignal): Promise<ServedCertificates> {
  const [handshake, probe] = await Promise.all([
    handshakeWith(settings, r, signal),
    probeServedChain(r.dial, r.serverName, LEGACY_SUITES, settings.handshakeTimeoutMs, signal).catch(() => ({ chain: null })),
  ])
  const served = probe.chain && probe.chain.certificates.length > 0 ? probe.chain : null
  if (served) return { handshake, certificates: served.certificates, source: 'served', served }
  // OpenSSL's chain ends in the trust-store root it found; the server may not have sent it.
  const chain = [...handshake.peer_chain]
  if (chain.length > 1 && settings.trust.sourceOf(new X509Certificate(chain.at(-1)!))) chain.pop()
  return { handshake, certificates: chain, source: 'handshake', served: null }
}

export async function tlsCertificate(settings: TlsSettings, asked: TlsTarget, signal: AbortSignal, now: Date, starttls: StarttlsProtocol | null = null) {
  const target = onStarttlsPort(asked, starttls ?? undefined)
  const r = await reach(settings, target, signal, starttls)
  const { handshake, certificates, source, served } = await servedCertificates(settings, r, signal)
  const parsed = certificates.map((der, position) => ({ position, ...parseCertificate(der, now) }))
  const leaf = parsed[0]!
  return {
    ...targetFields(r),
    protocol: handshake.protocol,
    chain_source: source,
    chain_verified: handshake.chain_verified,
    verify_error: handshake.verify_error,
    hostname: matchHostname(target, leaf),
    tls_sct_count: served?.tls_sct_count ?? 0,
    ocsp_stapled: handshake.ocsp !== null || (served?.ocsp ?? null) !== null,
    leaf,
    chain: parsed.slice(1),
  }
}
