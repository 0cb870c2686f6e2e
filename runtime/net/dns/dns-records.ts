// The decoded, JSON-friendly shape of resource records and answers. Records are plain
// data (no Buffers, no classes) so they can be cached, cloned and serialized as they
// are; the wire bytes a DNSSEC validator needs live beside them (dns-wire-store.ts).

import type { DnsClass, DnsRcode, DnsTypeMnemonic, DnsTypeName } from './dns-types.ts'

export interface DnsRecordOf<T extends string, D> {
  /** Owner name, without the trailing dot ("." for the root). */
  name: string
  type: T
  class: DnsClass
  /** Seconds; values with the top bit set count as 0 (RFC 2181 §8). */
  ttl: number
  data: D
}

export interface AddressData {
  address: string
}

/** NS, CNAME, DNAME and PTR: one domain name. */
export interface TargetData {
  target: string
}

export interface MxData {
  preference: number
  exchange: string
}

export interface TxtData {
  /** The character-strings joined with no separator (RFC 7208 §3.3, RFC 6376 §3.6.2.2). */
  text: string
  /** Each character-string on its own, quotes and escapes removed, invalid UTF-8 as U+FFFD. */
  strings: string[]
}

export interface SoaData {
  mname: string
  /** The mailbox as a name; a dot inside the local part is escaped as `\.`. */
  rname: string
  serial: number
  refresh: number
  retry: number
  expire: number
  minimum: number
}

export interface CaaData {
  flags: number
  /** The issuer-critical flag (bit 0 of the flags octet, value 128). */
  critical: boolean
  tag: string
  value: string
}

export interface SrvData {
  priority: number
  weight: number
  port: number
  target: string
}

/** DNSKEY and CDNSKEY. */
export interface DnskeyData {
  flags: number
  protocol: number
  algorithm: number
  /** Public key, base64. */
  key: string
  /** RFC 4034 Appendix B key tag, as DS and RRSIG records refer to the key. */
  keyTag: number
  zoneKey: boolean
  secureEntryPoint: boolean
  revoked: boolean
}

/** DS and CDS. */
export interface DsData {
  keyTag: number
  algorithm: number
  digestType: number
  /** Lowercase hex. */
  digest: string
}

export interface RrsigData {
  typeCovered: DnsTypeMnemonic
  algorithm: number
  labels: number
  originalTtl: number
  /** ISO 8601; the 32-bit field is read with serial arithmetic around now (RFC 4034 §3.1.5). */
  expiration: string
  inception: string
  keyTag: number
  signerName: string
  /** Base64. */
  signature: string
}

export interface NsecData {
  nextDomain: string
  types: DnsTypeMnemonic[]
}

export interface Nsec3Data {
  hashAlgorithm: number
  flags: number
  optOut: boolean
  iterations: number
  /** Lowercase hex; '' when there is no salt (presented as "-"). */
  salt: string
  /** Base32hex without padding, lowercase, as in NSEC3 owner names. */
  nextHashedOwner: string
  types: DnsTypeMnemonic[]
}

export interface Nsec3ParamData {
  hashAlgorithm: number
  flags: number
  iterations: number
  salt: string
}

/** TLSA and SMIMEA. */
export interface TlsaData {
  usage: number
  selector: number
  matchingType: number
  /** Certificate association data, lowercase hex. */
  associationData: string
}

/** SvcParams of SVCB/HTTPS (RFC 9460 §7, RFC 9461 dohpath, RFC 9540 ohttp). */
export interface SvcParams {
  mandatory?: string[]
  alpn?: string[]
  'no-default-alpn'?: true
  port?: number
  ipv4hint?: string[]
  /** ECHConfigList, base64. */
  ech?: string
  ipv6hint?: string[]
  dohpath?: string
  ohttp?: true
  /** Keys without a defined presentation: the value as lowercase hex. */
  [key: `key${number}`]: string | undefined
}

export interface SvcbData {
  priority: number
  /** Priority 0 is AliasMode; anything else is ServiceMode. */
  mode: 'alias' | 'service'
  /** "." means the owner name itself (ServiceMode) or "no service" (AliasMode). */
  target: string
  params: SvcParams
}

export interface HinfoData {
  cpu: string
  os: string
}

export interface NaptrData {
  order: number
  preference: number
  flags: string
  services: string
  regexp: string
  replacement: string
}

export interface SshfpData {
  algorithm: number
  fingerprintType: number
  fingerprint: string
}

export interface ZonemdData {
  serial: number
  scheme: number
  hashAlgorithm: number
  digest: string
}

export interface UriData {
  priority: number
  weight: number
  target: string
}

/** Any type without a decoder here: the RDATA as lowercase hex (RFC 3597 §5, minus the `\#` and length). */
export interface UnknownData {
  rdata: string
}

export type ARecord = DnsRecordOf<'A', AddressData>
export type AaaaRecord = DnsRecordOf<'AAAA', AddressData>
export type NsRecord = DnsRecordOf<'NS', TargetData>
export type CnameRecord = DnsRecordOf<'CNAME', TargetData>
export type DnameRecord = DnsRecordOf<'DNAME', TargetData>
export type PtrRecord = DnsRecordOf<'PTR', TargetData>
export type MxRecord = DnsRecordOf<'MX', MxData>
export type TxtRecord = DnsRecordOf<'TXT' | 'SPF', TxtData>
export type SoaRecord = DnsRecordOf<'SOA', SoaData>
export type CaaRecord = DnsRecordOf<'CAA', CaaData>
export type SrvRecord = DnsRecordOf<'SRV', SrvData>
export type DnskeyRecord = DnsRecordOf<'DNSKEY' | 'CDNSKEY', DnskeyData>
export type DsRecord = DnsRecordOf<'DS' | 'CDS', DsData>
export type RrsigRecord = DnsRecordOf<'RRSIG', RrsigData>
export type NsecRecord = DnsRecordOf<'NSEC', NsecData>
export type Nsec3Record = DnsRecordOf<'NSEC3', Nsec3Data>
export type Nsec3ParamRecord = DnsRecordOf<'NSEC3PARAM', Nsec3ParamData>
export type TlsaRecord = DnsRecordOf<'TLSA' | 'SMIMEA', TlsaData>
export type SvcbRecord = DnsRecordOf<'SVCB' | 'HTTPS', SvcbData>
export type HinfoRecord = DnsRecordOf<'HINFO', HinfoData>
export type NaptrRecord = DnsRecordOf<'NAPTR', NaptrData>
export type SshfpRecord = DnsRecordOf<'SSHFP', SshfpData>
export type ZonemdRecord = DnsRecordOf<'ZONEMD', ZonemdData>
export type UriRecord = DnsRecordOf<'URI', UriData>

export type DecodedRecord =
  | ARecord
  | AaaaRecord
  | NsRecord
  | CnameRecord
  | DnameRecord
  | PtrRecord
  | MxRecord
  | TxtRecord
  | SoaRecord
  | CaaRecord
  | SrvRecord
  | DnskeyRecord
  | DsRecord
  | RrsigRecord
  | NsecRecord
  | Nsec3Record
  | Nsec3ParamRecord
  | TlsaRecord
  | SvcbRecord
  | HinfoRecord
  | NaptrRecord
  | SshfpRecord
  | ZonemdRecord
  | UriRecord

export type DecodedTypeName = DecodedRecord['type']
/** Types kept as hex: named ones without a decoder here, and numbers without a name. */
export type UnknownTypeName = Exclude<DnsTypeName, DecodedTypeName | 'OPT'> | `TYPE${number}`
export type UnknownRecord = DnsRecordOf<UnknownTypeName, UnknownData>

export type DnsRecord = DecodedRecord | UnknownRecord
type RecordFor<R, T extends string> = R extends { type: infer U; data: infer D } ? (T extends U ? DnsRecordOf<T, D> : never) : never
/** The record shape for one type name; works for types that share a shape (TXT/SPF, DS/CDS...). */
export type DnsRecordOfType<T extends DnsRecord['type']> = RecordFor<DnsRecord, T>

export interface DnsFlags {
  /** Authoritative answer. */
  aa: boolean
  /** Truncated (only ever seen on a UDP reply the client then retried over TCP). */
  tc: boolean
  rd: boolean
  ra: boolean
  /** Authentic data: the resolver says it validated the answer (trust it only over a trusted path). */
  ad: boolean
  cd: boolean
}

export interface DnsEdnsOption {
  code: number
  /** Lowercase hex of the option data. */
  data: string
}

export interface DnsExtendedError {
  /** RFC 8914 INFO-CODE, e.g. 6 DNSSEC Bogus, 9 DNSKEY Missing, 18 Prohibited. */
  infoCode: number
  extraText: string
}

export interface DnsEdns {
  version: number
  udpPayloadSize: number
  dnssecOk: boolean
  options: DnsEdnsOption[]
  /** Decoded Extended DNS Error options (RFC 8914), often the reason behind a SERVFAIL. */
  extendedErrors: DnsExtendedError[]
  /** The server's NSID (RFC 5001) as text, when it sent one. */
  nsid?: string
}

export interface DnsServerInfo {
  host: string
  port: number
  /** A label for the server (e.g. "Cloudflare"); defaults to host, or host:port off port 53. */
  name: string
}

export interface DnsQuestionInfo {
  name: string
  type: DnsTypeMnemonic
  class: DnsClass
}

export interface DnsAnswer {
  question: DnsQuestionInfo
  rcode: DnsRcode
  flags: DnsFlags
  answers: DnsRecord[]
  authorities: DnsRecord[]
  /** Without the OPT pseudo-record, which is reported as `edns`. */
  additionals: DnsRecord[]
  edns: DnsEdns | null
  server: DnsServerInfo
  transport: 'udp' | 'tcp'
  /** From sending the query to the accepted reply, TCP fallback included. */
  latencyMs: number
}
