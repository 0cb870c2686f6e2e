import { randomBytes } from 'node:crypto'
import { isIP } from 'node:net'

// ClientHello messages written byte by byte (RFC 5246 §7.4.1.2, RFC 8446 §4.1.2),
// so a scan can offer any suite and any version — also ones the OpenSSL inside
// Node refuses to speak (SSLv3, RC4, export, 3DES, NULL) — and stop reading at
// the ServerHello: enumeration needs no key exchange on our side at all.

export const PROTOCOLS = [
  { name: 'SSLv3', version: 0x0300 },
  { name: 'TLSv1.0', version: 0x0301 },
  { name: 'TLSv1.1', version: 0x0302 },
  { name: 'TLSv1.2', version: 0x0303 },
  { name: 'TLSv1.3', version: 0x0304 },
] as const

export type ProtocolName = (typeof PROTOCOLS)[number]['name']

export function protocolName(version: number): ProtocolName | null {
  return PROTOCOLS.find((p) => p.version === version)?.name ?? null
}

export const GROUP = { secp256r1: 23, secp384r1: 24, secp521r1: 25, x25519: 29, x448: 30 } as const

export { groupName } from './named-groups.ts'

// Every named group, modern first: a server with any elliptic curve at all can pick ECDHE.
const SUPPORTED_GROUPS = [29, 23, 24, 25, 30, 256, 257, 258, 259, 260, 26, 27, 28, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]

// Every signature scheme incl. SHA-1 and DSA: legacy servers can then show what they have.
const SIGNATURE_ALGORITHMS = [
  0x0403, 0x0503, 0x0603, 0x0807, 0x0808, 0x0804, 0x0805, 0x0806, 0x0809, 0x080a, 0x080b, 0x0401, 0x0501, 0x0601, 0x0303, 0x0301, 0x0302,
  0x0402, 0x0502, 0x0602, 0x0203, 0x0201, 0x0202,
]

export interface KeyShare {
  group: number
  key: Buffer
}

export interface ClientHelloOptions {
  /** Versions offered. One version <= TLS 1.2: a classic hello at that version. With TLS 1.3: supported_versions. */
  versions: readonly number[]
  suites: readonly number[]
  /** SNI; null (or an IP literal) sends none. */
  serverName: string | null
  /** TLS 1.3 key shares; without them a TLS 1.3 server answers with a HelloRetryRequest, which names its suite all the same. */
  keyShares?: readonly KeyShare[]
  /** Ask for a stapled OCSP response (status_request). */
  statusRequest?: boolean
  /** supported_groups; default: every named group, modern first. */
  groups?: readonly number[]
  /** signature_algorithms; default: every scheme incl. SHA-1 and DSA. */
  signatureAlgorithms?: readonly number[]
  /**
   * signature_algorithms_cert (RFC 8446 §4.2.3): what the certificate chain may be
   * signed with, so that a hello offering one handshake signature scheme alone
   * still accepts whatever the server's certificate is signed with.
   */
  signatureAlgorithmsCert?: readonly number[]
  /** compression_methods; default [0] (null). [1, 0] offers DEFLATE (the CRIME check). */
  compressionMethods?: readonly number[]
  /** The heartbeat extension (RFC 6520), peer_allowed_to_send. */
  heartbeat?: boolean
  /** Signalling suites appended to the list (TLS_FALLBACK_SCSV 0x5600). */
  scsv?: readonly number[]
  /** Leave out renegotiation_info (default: sent, empty, as RFC 5746 asks of an initial hello). */
  noRenegotiationInfo?: boolean
}

export interface ClientHello {
  /** The record(s) to send. */
  record: Buffer
  /** The handshake message alone (the TLS 1.3 transcript starts with it). */
  message: Buffer
}

const u8 = (n: number) => Buffer.from([n & 0xff])
const u16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff])
const u24 = (n: number) => Buffer.from([(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff])
const vec8 = (b: Buffer) => Buffer.concat([u8(b.length), b])
const vec16 = (b: Buffer) => Buffer.concat([u16(b.length), b])
const list16 = (values: readonly number[]) => vec16(Buffer.concat(values.map(u16)))
const extension = (type: number, body: Buffer) => Buffer.concat([u16(type), vec16(body)])

export function buildClientHello(o: ClientHelloOptions): ClientHello {
  const max = Math.max(...o.versions)
  const ssl3 = max === 0x0300
  const legacyVersion = Math.min(max, 0x0303)
  const suites = [...o.suites, ...(o.scsv ?? []), ...(ssl3 && !o.noRenegotiationInfo ? [0x00ff] : [])] // SSLv3 has no extensions: signal secure renegotiation by SCSV
  const parts: Buffer[] = [u16(legacyVersion), randomBytes(32), vec8(ssl3 ? Buffer.alloc(0) : randomBytes(32)), list16(suites), vec8(Buffer.from(o.compressionMethods ?? [0]))]
  if (!ssl3) {
    const extensions: Buffer[] = []
    const name = o.serverName && isIP(o.serverName) === 0 ? o.serverName : null
    if (name) {
      const host = Buffer.from(name, 'ascii')
      extensions.push(extension(0, vec16(Buffer.concat([u8(0), vec16(host)]))))
    }
    extensions.push(extension(10, list16(o.groups ?? SUPPORTED_GROUPS)))
    extensions.push(extension(11, vec8(Buffer.from([0]))))
    extensions.push(extension(13, list16(o.signatureAlgorithms ?? SIGNATURE_ALGORITHMS)))
    if (o.signatureAlgorithmsCert) extensions.push(extension(50, list16(o.signatureAlgorithmsCert)))
    if (o.statusRequest) extensions.push(extension(5, Buffer.from([1, 0, 0, 0, 0])))
    extensions.push(extension(23, Buffer.alloc(0)))
    if (!o.noRenegotiationInfo) extensions.push(extension(0xff01, Buffer.from([0])))
    if (max === 0x0304) {
      const versions = [...o.versions].sort((a, b) => b - a)
      extensions.push(extension(43, vec8(Buffer.concat(versions.map(u16)))))
      extensions.push(extension(45, vec8(Buffer.from([1]))))
      const shares = (o.keyShares ?? []).map((s) => Buffer.concat([u16(s.group), vec16(s.key)]))
      extensions.push(extension(51, vec16(Buffer.concat(shares))))
    }
    // Last: some servers refuse a hello whose final extension is empty (testssl.sh PR #792).
    if (o.heartbeat) extensions.push(extension(15, Buffer.from([1])))
    parts.push(vec16(Buffer.concat(extensions)))
  }
  const body = Buffer.concat(parts)
  const message = Buffer.concat([u8(1), u24(body.length), body])
  const record = Buffer.concat([u8(22), u16(ssl3 ? 0x0300 : 0x0301), u16(message.length), message])
  return { record, message }
}
