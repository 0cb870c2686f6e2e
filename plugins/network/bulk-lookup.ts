import type { z } from 'zod'
import { embeddedIpv4 } from '../../runtime/ip/embedded-ipv4.ts'
import { formatCidr, formatIp, formatIpv4Number } from '../../runtime/ip/format.ts'
import type { IpAddress, IpVersion } from '../../runtime/ip/ip-types.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import { scanIpv4 } from '../../runtime/ip/parse-ipv4.ts'
import type { RegistryVerdict } from '../../runtime/ip/registry-table.ts'
import { ipv4RegistryVerdict, registryVerdict } from '../../runtime/ip/registry-table.ts'
import type { IpBulkResult } from '../../registry/network/schemas/ip-bulk-data.ts'
import { STRIDE } from './asn-db/ipv4-ranges.ts'
import type { IpDataSets } from './ip-data.ts'
import { lookupOrder } from './present-ip.ts'
import type { JsonBytes } from '../../runtime/json-bytes.ts'
import { encodeString, jsonPiece } from '../../runtime/json-bytes.ts'

// One address of a bulk lookup (POST /api/ip/bulk), answered as /api/ip/{ip}
// answers its ASN, country, class and bogon verdict, in about a microsecond: a
// plain dotted quad (most of any list) never becomes a bigint or an object
// before its answer — the allocation-free scan, the ASN table's row, the
// registry table (runtime/ip/registry-table.ts), the country reader on the text
// as sent (a strict dotted quad is already canonical). Anything else (IPv6,
// IPv4 inside IPv6) takes the general path /api/ip takes (lookupOrder: a mapped
// or NAT64 address answers for its IPv4 host). test/network/ip-bulk.test.ts
// holds every answer to /api/ip's.

export type BulkResult = z.input<typeof IpBulkResult>

/**
 * The RPKI state of a route (network with host bits clear, length, origin AS):
 * the caller's VRP set, or none (every state null).
 */
export type RouteJudge = (version: IpVersion, network: number | bigint, length: number, origin: number) => 'valid' | 'invalid' | 'not-found'

/**
 * The prefix length of the largest CIDR block holding `value` inside [start,
 * end] (IPv4 as unsigned 32-bit numbers): no block is larger than the range, so
 * the search starts at the range's size (most ranges are one block: one step).
 */
export function block4Length(value: number, start: number, end: number): number {
  const span = end - start + 1
  for (let length = span > 0xffffffff ? 0 : Math.clz32(span) + 1; length < 32; length++) {
    const mask = length === 0 ? 0 : (0xffffffff << (32 - length)) >>> 0
    const network = (value & mask) >>> 0
    if (network >= start && (network | ~mask) >>> 0 <= end) return length
  }
  return 32
}

const maskOf = (length: number): number => (length === 0 ? 0 : (0xffffffff << (32 - length)) >>> 0)

function block6(value: bigint, start: bigint, end: bigint): [network: bigint, length: number] {
  for (let length = 0; length < 128; length++) {
    const size = 1n << BigInt(128 - length)
    const network = value - (value % size)
    if (network >= start && network + size - 1n <= end) return [network, length]
  }
  return [value, 128]
}

const LONGEST_ENTRY = 100

function invalid(input: unknown, message: string): BulkResult {
  const text = typeof input === 'string' ? input : JSON.stringify(input) ?? String(input)
  return { input: text.length > LONGEST_ENTRY ? `${text.slice(0, LONGEST_ENTRY)}…` : text, error: { code: 'bad_request', message } }
}

/** One entry of the list, as an object or written as JSON bytes (the same answer either way). */
export interface BulkLookup {
  /** The facts about one entry; `judge` adds the RPKI state. */
  (entry: unknown, judge: RouteJudge | undefined): BulkResult
  /**
   * The same answer written into `out` as the JSON text JSON.stringify would give
   * for the object (test/network/ip-bulk-json.test.ts holds them equal), without
   * the object: a plain dotted quad writes its facts straight from the tables.
   * Returns whether the entry was an address.
   */
  write(entry: unknown, judge: RouteJudge | undefined, out: JsonBytes): boolean
}

// Keys in the order the object literals below have them (JSON.stringify's order).
const K_IP = jsonPiece('{"ip":"')
const K_VERSION4 = jsonPiece('","version":4,"asn":')
const K_AS_NAME = jsonPiece(',"as_name":')
const K_NO_AS = jsonPiece('null,"as_name":null')
const K_COUNTRY = jsonPiece(',"country":')
const K_PREFIX = jsonPiece(',"prefix":"')
const K_RPKI = jsonPiece('","rpki":')
const NULL_RPKI_END = jsonPiece('null}')
const NULL = jsonPiece('null')
const RPKI_END = { valid: jsonPiece('"valid"}'), invalid: jsonPiece('"invalid"}'), 'not-found': jsonPiece('"not-found"}') } as const
const NULL_PREFIX_RPKI_END = jsonPiece(',"prefix":null,"rpki":null}')

/** The facts about one entry of the list; `judge` adds the RPKI state. */
export function defineBulkLookup(data: IpDataSets): BulkLookup {
  const { asn: asnDb, country: countryDb } = data
  const rows = asnDb.ipv4.rows

  const ipv4 = (text: string, value: number, judge: RouteJudge | undefined): BulkResult => {
    const verdict = ipv4RegistryVerdict(value)
    const row = asnDb.findIpv4(value)
    let asn: number | null = null
    let asName: string | null = null
    let prefix: string | null = null
    let rpki: BulkResult['rpki'] = null
    if (row >= 0) {
      asn = rows[row * STRIDE + 2] as number
      asName = asnDb.ipv4Name(row)
      const length = block4Length(value, rows[row * STRIDE] as number, rows[row * STRIDE + 1] as number)
      const network = (value & maskOf(length)) >>> 0
      prefix = `${formatIpv4Number(network)}/${length}`
      if (judge) rpki = judge(4, network, length, asn)
    }
    return { ip: text, version: 4, asn, as_name: asName, country: countryDb.lookupIpv4(value), class: verdict.class, bogon: verdict.bogon, prefix, rpki }
  }

  // The JSON bytes of what a list repeats, kept by what identifies them without
  // hashing a string: AS names by their index in the name table, class and bogon
  // by the registry table's verdict object, countries by their code (a few hundred).
  const nameBytes = new Map<number, Uint8Array>()
  const verdictBytes = new Map<RegistryVerdict, Uint8Array>()
  const countryBytes = new Map<string, Uint8Array>()
  const nameOf = (row: number): Uint8Array => {
    const index = rows[row * STRIDE + 3] as number
    let bytes = nameBytes.get(index)
    if (bytes === undefined) {
      bytes = encodeString(asnDb.ipv4Name(row))
      nameBytes.set(index, bytes)
    }
    return bytes
  }
  const classOf = (verdict: RegistryVerdict): Uint8Array => {
    let bytes = verdictBytes.get(verdict)
    if (bytes === undefined) {
      bytes = jsonPiece(`,"class":${JSON.stringify(verdict.class)},"bogon":${verdict.bogon}`)
      verdictBytes.set(verdict, bytes)
    }
    return bytes
  }
  const countryOf = (value: number): Uint8Array => {
    const code = countryDb.lookupIpv4(value)
    if (code === null) return NULL
    let bytes = countryBytes.get(code)
    if (bytes === undefined) {
      bytes = encodeString(code)
      countryBytes.set(code, bytes)
    }
    return bytes
  }

  /** ipv4() written as bytes: the same facts, in the same order, no object or string made. */
  const writeIpv4 = (value: number, judge: RouteJudge | undefined, out: JsonBytes): void => {
    const verdict = ipv4RegistryVerdict(value)
    const row = asnDb.findIpv4(value)
    // scanIpv4 accepts only the canonical dotted quad (no leading zeros): the
    // text as sent is the address written from its value.
    out.bytes(K_IP)
    out.ipv4(value)
    out.bytes(K_VERSION4)
    if (row < 0) {
      out.bytes(K_NO_AS)
      out.bytes(K_COUNTRY)
      out.bytes(countryOf(value))
      out.bytes(classOf(verdict))
      out.bytes(NULL_PREFIX_RPKI_END)
      return
    }
    const asn = rows[row * STRIDE + 2] as number
    const length = block4Length(value, rows[row * STRIDE] as number, rows[row * STRIDE + 1] as number)
    const network = (value & maskOf(length)) >>> 0
    out.uint(asn)
    out.bytes(K_AS_NAME)
    out.bytes(nameOf(row))
    out.bytes(K_COUNTRY)
    out.bytes(countryOf(value))
    out.bytes(classOf(verdict))
    out.bytes(K_PREFIX)
    out.ipv4(network)
    out.byte(0x2f)
    out.uint(length)
    out.bytes(K_RPKI)
    out.bytes(judge ? RPKI_END[judge(4, network, length, asn)] : NULL_RPKI_END)
  }

  const general = (address: IpAddress, judge: RouteJudge | undefined): BulkResult => {
    const verdict = registryVerdict(address)
    let asn: number | null = null
    let asName: string | null = null
    let prefix: string | null = null
    let rpki: BulkResult['rpki'] = null
    let country: string | null = null
    for (const target of lookupOrder(address, embeddedIpv4(address))) {
      if (asn === null) {
        if (target.version === 4) {
          const value = Number(target.value)
          const row = asnDb.findIpv4(value)
          if (row >= 0) {
            asn = asnDb.ipv4Asn(row)
            asName = asnDb.ipv4Name(row)
            const length = block4Length(value, rows[row * STRIDE] as number, rows[row * STRIDE + 1] as number)
            const network = (value & maskOf(length)) >>> 0
            prefix = `${formatIpv4Number(network)}/${length}`
            if (judge) rpki = judge(4, network, length, asn)
          }
        } else {
          const row = asnDb.findIpv6(target.value)
          if (row >= 0) {
            asn = asnDb.ipv6Asn(row)
            asName = asnDb.ipv6Name(row)
            const [start, end] = asnDb.ipv6Range(row)
            const [network, length] = block6(target.value, start, end)
            prefix = formatCidr({ version: 6, address: network, network, prefixLength: length, hostBitsSet: false })
            if (judge) rpki = judge(6, network, length, asn)
          }
        }
      }
      country ??= countryDb.lookup(formatIp(target))
    }
    return { ip: formatIp(address), version: address.version, asn, as_name: asName, country, class: verdict.class, bogon: verdict.bogon, prefix, rpki }
  }

  const lookup = (entry: unknown, judge: RouteJudge | undefined): BulkResult => {
    if (typeof entry !== 'string') return invalid(entry, `expected an address as a string; got ${entry === null ? 'null' : Array.isArray(entry) ? 'an array' : typeof entry}`)
    // As /api/ip/{ip} reads its parameter: surrounding whitespace does not count.
    const text = entry.trim()
    const value = scanIpv4(text, 0, text.length)
    if (value >= 0) return ipv4(text, value, judge)
    const parsed = parseIp(text)
    if (!parsed.ok) return invalid(entry, parsed.error.reason)
    return general(parsed.value, judge)
  }

  return Object.assign(lookup, {
    write(entry: unknown, judge: RouteJudge | undefined, out: JsonBytes): boolean {
      if (typeof entry === 'string') {
        const text = entry.trim()
        const value = scanIpv4(text, 0, text.length)
        if (value >= 0) {
          writeIpv4(value, judge, out)
          return true
        }
      }
      // IPv6, IPv4 inside IPv6, bad entries: rare in a list, the object path.
      const result = lookup(entry, judge)
      out.value(result)
      return result.error === undefined
    },
  })
}
