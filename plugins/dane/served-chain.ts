import tlsCertificate from '../../registry/tls/certificate.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import { ApiError } from '../../runtime/errors.ts'
import type { GuardedNetwork } from '../../runtime/net/guarded-network.ts'
import { probeStarttls } from '../email/surface.ts'
import type { Service } from './tlsa-match.ts'

// The certificate chain a service really serves, as DANE needs it: the certificates
// the server sent, nothing a trust store added. SMTP (ports 25 and 587) through the
// email plugin's STARTTLS probe with an empty trust store (Node otherwise appends the
// issuer it finds in its own store as if the server had sent it); any other TCP port
// through /api/tls/certificate (ctx.invoke), which reads the server's Certificate
// message itself and also says whether the chain is valid by PKIX.

export interface ServedChain {
  ok: true
  address: string | null
  /** DER, in the order sent (leaf first). */
  certificates: Buffer[]
  pkixValid: boolean | null
}

export interface ChainFailure {
  ok: false
  /** unreachable: no connection (or refused by the target policy); tls_unavailable: no STARTTLS or no TLS. */
  kind: 'unreachable' | 'tls_unavailable' | 'not_probed'
  message: string
}

/** Ports whose protocol starts in plain text and is not probed (IMAP, POP3, XMPP, ...). */
const OTHER_STARTTLS: Readonly<Record<number, string>> = { 110: 'POP3', 143: 'IMAP', 389: 'LDAP', 5222: 'XMPP', 5269: 'XMPP', 21: 'FTP', 4190: 'ManageSieve' }

export function serviceOf(port: number, proto: string): Service {
  if (proto !== 'tcp' || OTHER_STARTTLS[port] !== undefined) return 'none'
  return port === 25 || port === 587 ? 'smtp' : 'tls'
}

export interface ChainOptions {
  network: GuardedNetwork
  /** Where "port 25" really is (INFRALENS_SMTP_PORT: another for local MTAs and tests). */
  smtpPort: number
  timeoutMs: number
}

export async function servedChain(ctx: ResolverContext, host: string, port: number, proto: string, options: ChainOptions): Promise<ServedChain | ChainFailure> {
  const service = serviceOf(port, proto)
  if (service === 'none') {
    const what = proto !== 'tcp' ? `${proto.toUpperCase()} services` : `${OTHER_STARTTLS[port]} (STARTTLS on port ${port})`
    return { ok: false, kind: 'not_probed', message: `${what} are not probed: only the TLSA records and their DNSSEC status are checked` }
  }
  if (service === 'smtp') {
    const result = await probeStarttls(options.network, host, {
      port: port === 25 ? options.smtpPort : port,
      timeoutMs: options.timeoutMs,
      signal: ctx.signal,
      ca: [],
      ehloName: 'probe.infralens.invalid',
      now: ctx.clock.now(),
      withChain: true,
    })
    if (result.status === 'ok' && result.served_chain && result.served_chain.length > 0) {
      return { ok: true, address: result.address, certificates: result.served_chain.map((b64) => Buffer.from(b64, 'base64')), pkixValid: null }
    }
    const at = `${host}:${port}`
    switch (result.status) {
      case 'no_starttls':
        return { ok: false, kind: 'tls_unavailable', message: `${at} does not offer STARTTLS` }
      case 'tls_failed':
        return { ok: false, kind: 'tls_unavailable', message: `${at}: ${result.error ?? 'the TLS handshake failed'}` }
      default:
        return { ok: false, kind: 'unreachable', message: `${at}: ${result.error ?? result.status}` }
    }
  }
  try {
    const { data } = await ctx.invoke(tlsCertificate, { host: `${host}:${port}` }, { timeoutMs: options.timeoutMs })
    const pems = [data.leaf.pem, ...data.chain.map((c) => c.pem)]
    return { ok: true, address: data.address, certificates: pems.map(derOf), pkixValid: data.chain_verified && data.hostname.matches }
  } catch (error) {
    // A failing probe is a fact about the host; the request going away is not.
    if (!(error instanceof ApiError) || ctx.signal.aborted) throw error
    const kind = error.details.reason === 'bad_response' ? 'tls_unavailable' : 'unreachable'
    return { ok: false, kind, message: `${host}:${port}: ${error.message}` }
  }
}

function derOf(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, ''), 'base64')
}
