import type { GuardedNetwork } from '../../../runtime/net/guarded-network.ts'
import type { Finding } from '../../../registry/email/schemas/findings.ts'
import { finding, sortFindings } from '../findings.ts'
import type { MxDataShape } from '../../../registry/email/schemas/mx-data.ts'
import type { StarttlsResult } from './starttls-probe.ts'
import { probeStarttls } from './starttls-probe.ts'
import type { TlsPartShape } from '../../../registry/email/schemas/starttls-data.ts'

export interface TlsOptions {
  port: number
  ca: string[] | undefined
  signal: AbortSignal
  /** Each probe's deadline, connection to QUIT (the probes run side by side). */
  timeoutMs: number
  /** Hosts probed, most preferred first. */
  maxHosts?: number
  ehloName?: string
  /** The service clock's now (ms), for certificate ages. */
  now: number
}

function lintHost(r: StarttlsResult): Finding[] {
  const at = `${r.host}:${r.port}`
  switch (r.status) {
    case 'unreachable':
      return [finding('tls.unreachable', 'warning', `${at} did not accept a connection (${r.error}); mail to it is delayed. (Port 25 may also be filtered on the path from this service.)`, 'Check that the mail server listens on port 25 and the firewall lets the internet in.')]
    case 'blocked':
      // The service never connects to private or loopback addresses; nor can any sender on the internet.
      return [finding('tls.blocked', 'warning', `STARTTLS on ${at} was not checked: ${r.error}`, `Give ${r.host} a public address that senders can reach (see mx.private_address).`)]
    case 'smtp_error':
      return [finding('tls.smtp_error', 'warning', `${at} did not speak SMTP as expected: ${r.error}.`, null)]
    case 'no_starttls':
      return [finding('tls.no_starttls', 'error', `${at} does not offer STARTTLS: mail to it travels unencrypted.`, 'Enable STARTTLS with a certificate for the MX host name.')]
    case 'tls_failed':
      return [finding('tls.handshake_failed', 'error', `${at} offers STARTTLS but the TLS handshake fails (${r.error}); senders fall back to plain text or defer.`, 'Fix the TLS configuration (certificate, protocols, ciphers).')]
    case 'ok':
      break
  }
  const out: Finding[] = []
  const tls = r.tls!
  const cert = tls.certificate
  if (cert?.expired) out.push(finding('tls.certificate_expired', 'error', `The certificate of ${at} expired on ${cert.valid_to.slice(0, 10)}.`, 'Renew the certificate.'))
  else if (cert && cert.days_remaining < 14) out.push(finding('tls.certificate_expiring', 'warning', `The certificate of ${at} expires in ${cert.days_remaining} days.`, 'Renew it (automate renewal).'))
  if (!tls.trusted && !cert?.expired) out.push(finding('tls.untrusted_certificate', 'warning', `The certificate of ${at} does not verify (${tls.trust_error}); opportunistic senders still deliver, MTA-STS and DANE senders will not.`, 'Install a certificate from a public CA, with its intermediate certificates.'))
  if (!tls.name_matches) out.push(finding('tls.name_mismatch', 'warning', `The certificate of ${at} is for ${cert?.names.join(', ') || cert?.subject || 'another name'}, not ${r.host}.`, `Get a certificate that includes ${r.host}.`))
  if (tls.protocol === 'TLSv1' || tls.protocol === 'TLSv1.1' || tls.protocol === 'SSLv3') out.push(finding('tls.old_protocol', 'warning', `${at} negotiated ${tls.protocol}, deprecated by RFC 8996.`, 'Enable TLS 1.2 and 1.3.'))
  if (cert?.key_type === 'rsa' && cert.key_bits !== null && cert.key_bits < 2048) out.push(finding('tls.weak_key', 'warning', `${at} uses a ${cert.key_bits}-bit RSA key.`, 'Use a 2048-bit RSA or an ECDSA key.'))
  return out
}

/** STARTTLS on the most preferred MX hosts, in parallel. */
export async function inspectTls(network: GuardedNetwork, mx: MxDataShape, options: TlsOptions): Promise<TlsPartShape> {
  const hosts = [...new Set(mx.records.filter((h) => h.status === 'ok').map((h) => h.exchange))].slice(0, options.maxHosts ?? 5)
  const results = await Promise.all(
    hosts.map((host) =>
      probeStarttls(network, host, {
        port: options.port,
        timeoutMs: options.timeoutMs,
        signal: options.signal,
        ca: options.ca,
        ehloName: options.ehloName ?? 'probe.infralens.invalid',
        now: options.now,
      }),
    ),
  )
  const findings = results.flatMap(lintHost)
  const answered = results.filter((r) => r.status !== 'blocked' && r.status !== 'unreachable')
  if (hosts.length > 0 && answered.length > 0 && answered.every((r) => r.status === 'ok' && r.tls?.trusted && r.tls.name_matches)) {
    findings.push(finding('tls.ok', 'info', `Every reachable MX host offers STARTTLS with a trusted certificate for its name (${answered.map((r) => r.tls?.protocol).join(', ')}).`, null))
  }
  return { port: options.port, hosts: results, findings: sortFindings(findings) }
}
