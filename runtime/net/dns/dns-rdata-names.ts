// Where domain names sit inside the RDATA of the types that embed them, read left to
// right: a number is that many fixed bytes, 'name' one domain name, 'string' one
// character-string (a length byte and that many bytes). Whatever follows the layout
// holds no name. One table for both readers: decompressing a received record
// (dns-rdata-expand.ts) and DNSSEC's canonical form (plugins/dnssec/canonical.ts,
// which lowercases these names — for every type here but NSEC, RFC 6840 §5.1).

export type RdataPart = number | 'name' | 'string'

export const RDATA_NAME_LAYOUTS: Readonly<Record<number, readonly RdataPart[]>> = {
  2: ['name'], // NS
  3: ['name'], // MD
  4: ['name'], // MF
  5: ['name'], // CNAME
  6: ['name', 'name'], // SOA (then 20 fixed bytes)
  7: ['name'], // MB
  8: ['name'], // MG
  9: ['name'], // MR
  12: ['name'], // PTR
  14: ['name', 'name'], // MINFO
  15: [2, 'name'], // MX
  17: ['name', 'name'], // RP
  18: [2, 'name'], // AFSDB
  21: [2, 'name'], // RT
  24: [18, 'name'], // SIG
  26: [2, 'name', 'name'], // PX
  30: ['name'], // NXT
  33: [6, 'name'], // SRV
  35: [4, 'string', 'string', 'string', 'name'], // NAPTR
  36: [2, 'name'], // KX
  39: ['name'], // DNAME
  46: [18, 'name'], // RRSIG
  47: ['name'], // NSEC
}

/** NSEC's next owner name keeps its case in the canonical form (RFC 6840 §5.1). */
export const NSEC_TYPE = 47
