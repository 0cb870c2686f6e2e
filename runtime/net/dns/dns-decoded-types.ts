// The record types dns-rdata.ts decodes into named fields, as a value: what the API
// can ask for and show (/api/dns/query?type=, the per-type endpoints' `dnsType`).
// Any other type would come back as opaque hex, so the API refuses to ask for it and
// says which it can. The compile-time checks below keep this list and the decoder's
// union (DecodedTypeName) the same set.

import type { DecodedTypeName } from './dns-records.ts'

export const DECODED_TYPES = [
  'A',
  'AAAA',
  'CAA',
  'CDNSKEY',
  'CDS',
  'CNAME',
  'DNAME',
  'DNSKEY',
  'DS',
  'HINFO',
  'HTTPS',
  'MX',
  'NAPTR',
  'NS',
  'NSEC',
  'NSEC3',
  'NSEC3PARAM',
  'PTR',
  'RRSIG',
  'SMIMEA',
  'SOA',
  'SPF',
  'SRV',
  'SSHFP',
  'SVCB',
  'TLSA',
  'TXT',
  'URI',
  'ZONEMD',
] as const satisfies readonly DecodedTypeName[]

export type DecodedType = (typeof DECODED_TYPES)[number]

// Every decoded type is listed (a type added to the decoder without being added here fails to compile).
type Unlisted = Exclude<DecodedTypeName, DecodedType>
const everyTypeListed: [Unlisted] extends [never] ? true : Unlisted = true
void everyTypeListed

const LISTED: ReadonlySet<string> = new Set(DECODED_TYPES)

/** The decoded type a client's text names (any case), or undefined. */
export function decodedType(text: string): DecodedType | undefined {
  const upper = text.trim().toUpperCase()
  return LISTED.has(upper) ? (upper as DecodedType) : undefined
}
