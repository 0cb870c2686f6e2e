import { UpstreamError } from '../../runtime/errors.ts'
import { parseCertificate } from './certificate-details.ts'
import { tlsHandshake } from './handshake.ts'
import type { Handshake } from './handshake.ts'
import type { TlsTarget } from '../../registry/tls/schemas/host-param.ts'
import { matchHostname } from './hostname.ts'
import { suiteData } from './present.ts'
import type { Reached, TlsSettings } from './target.ts'
import { onStarttlsPort, reach, targetFields } from './target.ts'
import type { StarttlsProtocol } from '../../registry/tls/schemas/starttls-param.ts'

// GET /api/tls/{host}: one handshake, as a browser-like client sees it.

export async function handshakeWith(settings: TlsSettings, r: Reached, signal: AbortSignal): Promise<Handshake> {
  const hs = await tlsHandshake({ dial: r.dial, serverName: r.serverName, ca: settings.trust.ca, timeoutMs: settings.handshakeTimeoutMs, signal, label: r.target.label })
  if (hs.peer_chain.length === 0) throw new UpstreamError('tls', 'bad_response', `${r.target.label} completed the handshake without a certificate.`, { host: r.target.label })
  return hs
}

export async function tlsConnection(settings: TlsSettings, asked: TlsTarget, signal: AbortSignal, now: Date, starttls: StarttlsProtocol | null = null) {
  const target = onStarttlsPort(asked, starttls ?? undefined)
  const r = await reach(settings, target, signal, starttls)
  const hs = await handshakeWith(settings, r, signal)
  const leaf = parseCertificate(hs.peer_chain[0]!, now)
  const hostname = matchHostname(target, leaf)
  return {
    ...targetFields(r),
    protocol: hs.protocol,
    cipher: hs.cipher ? suiteData(hs.cipher) : null,
    cipher_openssl_name: hs.cipher_openssl_name,
    key_exchange: hs.key_exchange,
    alpn: hs.alpn,
    connect_ms: hs.connect_ms,
    handshake_ms: hs.handshake_ms,
    ocsp_stapled: hs.ocsp !== null,
    certificate: {
      subject: leaf.subject.text,
      common_name: leaf.subject.common_name,
      issuer: leaf.issuer.text,
      issuer_common_name: leaf.issuer.common_name,
      dns_names: leaf.sans.dns,
      ip_addresses: leaf.sans.ip,
      not_before: leaf.not_before,
      not_after: leaf.not_after,
      days_left: leaf.days_left,
      expired: leaf.expired,
      not_yet_valid: leaf.not_yet_valid,
      public_key: leaf.public_key,
      signature_algorithm: leaf.signature_algorithm.name,
      fingerprint_sha256: leaf.fingerprint_sha256,
      self_signed: leaf.self_signed,
    },
    chain_verified: hs.chain_verified,
    verify_error: hs.verify_error,
    hostname,
    valid: hs.chain_verified && hostname.matches && !leaf.expired && !leaf.not_yet_valid,
  }
}
