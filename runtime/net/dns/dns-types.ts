// Mnemonics for DNS TYPE, CLASS and RCODE numbers (IANA "Domain Name System (DNS)
// Parameters"). dns-packet has its own table, but it lacks SVCB/HTTPS, ZONEMD,
// CDS/CDNSKEY names in places and prints UNKNOWN_n; every name that leaves this module
// uses RFC 3597's TYPEn / CLASSn form for numbers without a mnemonic instead.

export const TYPE_CODES = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  NULL: 10,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  RP: 17,
  AFSDB: 18,
  SIG: 24,
  KEY: 25,
  AAAA: 28,
  LOC: 29,
  SRV: 33,
  NAPTR: 35,
  KX: 36,
  CERT: 37,
  DNAME: 39,
  OPT: 41,
  APL: 42,
  DS: 43,
  SSHFP: 44,
  IPSECKEY: 45,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  DHCID: 49,
  NSEC3: 50,
  NSEC3PARAM: 51,
  TLSA: 52,
  SMIMEA: 53,
  HIP: 55,
  CDS: 59,
  CDNSKEY: 60,
  OPENPGPKEY: 61,
  CSYNC: 62,
  ZONEMD: 63,
  SVCB: 64,
  HTTPS: 65,
  SPF: 99,
  EUI48: 108,
  EUI64: 109,
  TKEY: 249,
  TSIG: 250,
  IXFR: 251,
  AXFR: 252,
  ANY: 255,
  URI: 256,
  CAA: 257,
  TA: 32768,
  DLV: 32769,
} as const

export type DnsTypeName = keyof typeof TYPE_CODES
/** A type as it is printed: its mnemonic, or TYPEn (RFC 3597) when it has none. */
export type DnsTypeMnemonic = DnsTypeName | `TYPE${number}`

const TYPE_NAMES = new Map<number, DnsTypeName>(
  Object.entries(TYPE_CODES).map(([name, code]) => [code, name as DnsTypeName]),
)

export function typeName(code: number): DnsTypeMnemonic {
  return TYPE_NAMES.get(code) ?? `TYPE${code}`
}

/** The number of a type mnemonic or TYPEn (case-insensitive); undefined when unknown. */
export function typeCode(name: string): number | undefined {
  const upper = name.toUpperCase()
  if (Object.hasOwn(TYPE_CODES, upper)) return TYPE_CODES[upper as DnsTypeName]
  const generic = /^TYPE(\d{1,5})$/.exec(upper)
  if (generic?.[1] !== undefined) {
    const n = Number(generic[1])
    if (n <= 0xffff) return n
  }
  return undefined
}

export const CLASS_CODES = { IN: 1, CS: 2, CH: 3, HS: 4, NONE: 254, ANY: 255 } as const
export type DnsClassName = keyof typeof CLASS_CODES
export type DnsClass = DnsClassName | `CLASS${number}`

const CLASS_NAMES = new Map<number, DnsClassName>(
  Object.entries(CLASS_CODES).map(([name, code]) => [code, name as DnsClassName]),
)

export function className(code: number): DnsClass {
  return CLASS_NAMES.get(code) ?? `CLASS${code}`
}

export function classCode(name: string): number | undefined {
  const upper = name.toUpperCase()
  if (Object.hasOwn(CLASS_CODES, upper)) return CLASS_CODES[upper as DnsClassName]
  const generic = /^CLASS(\d{1,5})$/.exec(upper)
  if (generic?.[1] !== undefined) {
    const n = Number(generic[1])
    if (n <= 0xffff) return n
  }
  return undefined
}

// RCODEs above 15 only exist with EDNS (the OPT record carries the upper 8 bits).
const RCODE_NAMES = {
  0: 'NOERROR',
  1: 'FORMERR',
  2: 'SERVFAIL',
  3: 'NXDOMAIN',
  4: 'NOTIMP',
  5: 'REFUSED',
  6: 'YXDOMAIN',
  7: 'YXRRSET',
  8: 'NXRRSET',
  9: 'NOTAUTH',
  10: 'NOTZONE',
  11: 'DSOTYPENI',
  16: 'BADVERS',
  23: 'BADCOOKIE',
} as const

export type DnsRcodeName = (typeof RCODE_NAMES)[keyof typeof RCODE_NAMES]
export type DnsRcode = DnsRcodeName | `RCODE${number}`

export function rcodeName(code: number): DnsRcode {
  return (RCODE_NAMES as Record<number, DnsRcodeName>)[code] ?? `RCODE${code}`
}

export function rcodeCode(name: DnsRcode): number {
  for (const [code, n] of Object.entries(RCODE_NAMES)) if (n === name) return Number(code)
  const generic = /^RCODE(\d+)$/.exec(name)
  if (generic?.[1] !== undefined) return Number(generic[1])
  throw new TypeError(`unknown RCODE ${name}`)
}
