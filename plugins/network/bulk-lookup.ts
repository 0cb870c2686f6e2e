import type { z } from 'zod'
import { embeddedIpv4 } from '../../runtime/ip/embedded-ipv4.ts'
import { formatCidr, formatIp, formatIpv4Number, formatIpv6, formatIpv6Groups } from '../../runtime/ip/format.ts'
import type { IpAddress, IpVersion } from '../../runtime/ip/ip-types.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import { scanIpv4 } from '../../runtime/ip/parse-ipv4.ts'
import { groupsToBigint, scanIpv6 } from '../../runtime/ip/parse-ipv6.ts'
import type { RegistryVerdict } from '../../runtime/ip/registry-table.ts'
import { ipv4RegistryVerdict, registryVerdict } from '../../runtime/ip/registry-table.ts'
import type { IpBulkResult } from '../../registry/network/schemas/ip-bulk-data.ts'
import { STRIDE } from './asn-db/ipv4-ranges.ts'
import { findIpv6, wordsToBigint } from './asn-db/ipv6-ranges.ts'
import type { IpDataSets } from './ip-data.ts'
import { lookupOrder } from './present-ip.ts'
import type { JsonBytes } from '../../runtime/json-bytes.ts'
import { jsonPiece } from '../../runtime/json-bytes.ts'
import type { BulkBatch, Ipv4Answers } from './bulk-batch.ts'
import { Ipv4Columns, defineBulkBatch } from './bulk-batch.ts'

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

/** block4Length for IPv6: the network and length of the largest CIDR block holding `value` inside [start, end]. */
export function block6(value: bigint, start: bigint, end: bigint): [network: bigint, length: number] {
  // No block is larger than the range: start at its size (most ranges are one block).
  const span = end - start + 1n
  for (let length = span >> 128n > 0n ? 0 : 128 - (span.toString(2).length - 1); length < 128; length++) {
    const host = BigInt(128 - length)
    const network = (value >> host) << host
    if (network >= start && network + (1n << host) - 1n <= end) return [network, length]
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
  /**
   * A whole list written as write() writes each entry, in the list's order, with
   * the lookups of its plain dotted quads done in address order (bulk-batch.ts).
   */
  batch(entries: readonly unknown[], judge: RouteJudge | undefined): BulkBatch
}

// Keys in the order the object literals below have them (JSON.stringify's order).
const K_IP = jsonPiece('{"ip":"')
const K_VERSION4 = jsonPiece('","version":4,"asn":')
const K_VERSION6 = jsonPiece('","version":6,"asn":')
const K_NO_AS_COUNTRY = jsonPiece('null,"as_name":null,"country":')
const K_RPKI = '","rpki":'
const NULL_RPKI_END = jsonPiece(`${K_RPKI}null}`)
const RPKI_END = { valid: jsonPiece(`${K_RPKI}"valid"}`), invalid: jsonPiece(`${K_RPKI}"invalid"}`), 'not-found': jsonPiece(`${K_RPKI}"not-found"}`) } as const
/** RPKI states as the columns keep them (bulk-batch.ts), and their pieces by that code. */
const NO_STATE = 0
const STATE_CODE = { valid: 1, invalid: 2, 'not-found': 3 } as const
const RPKI_ENDS: readonly Uint8Array[] = [NULL_RPKI_END, RPKI_END.valid, RPKI_END.invalid, RPKI_END['not-found']]

/** What follows the AS name: country, class, bogon, then the prefix (routed) or the end (unrouted). */
interface Tail {
  id: number
  routed: Uint8Array
  unrouted: Uint8Array
}

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

  // The JSON bytes of what a list repeats, joined with the keys around them so an
  // address costs a few copies (each copy costs about what a lookup does; 22 small
  // pieces per address took most of the time), kept by what identifies them
  // without hashing a string: AS names by their index in the name table, with
  // `,"as_name":` before and `,"country":` after; the country (by its code, a few
  // hundred) with class and bogon (by the registry table's verdict object) and
  // `,"prefix":"` after.
  const namePieces = new Array<Uint8Array | undefined>(asnDb.names.count).fill(undefined)
  /** The pieces after the AS name, numbered as made (an answer's slot keeps the number). */
  const tailList: Tail[] = []
  const tails = new Map<RegistryVerdict, Map<string | null, Tail>>()
  /** `,"as_name":<name>,"country":` of the name at `index` in the name table. */
  const namePiece = (index: number): Uint8Array => {
    let bytes = namePieces[index]
    if (bytes === undefined) {
      bytes = jsonPiece(`,"as_name":${JSON.stringify(asnDb.names.get(index))},"country":`)
      namePieces[index] = bytes
    }
    return bytes
  }
  /** Country, class and bogon, then `,"prefix":"` (routed) or the null prefix and RPKI (unrouted). */
  const tailOf = (verdict: RegistryVerdict, code: string | null): Tail => {
    let byCountry = tails.get(verdict)
    if (byCountry === undefined) {
      byCountry = new Map()
      tails.set(verdict, byCountry)
    }
    let tail = byCountry.get(code)
    if (tail === undefined) {
      const facts = `${JSON.stringify(code)},"class":${JSON.stringify(verdict.class)},"bogon":${verdict.bogon}`
      tail = { id: tailList.length, routed: jsonPiece(`${facts},"prefix":"`), unrouted: jsonPiece(`${facts},"prefix":null,"rpki":null}`) }
      tailList.push(tail)
      byCountry.set(code, tail)
    }
    return tail
  }

  // A dotted quad's answer in two steps, the lookups into a slot of columns and
  // the bytes from it, so a list can look up in address order and write in its
  // own (bulk-batch.ts).
  const ipv4Answers: Ipv4Answers<RouteJudge | undefined> = {
    resolve(value, judge, columns, at) {
      columns.tail[at] = tailOf(ipv4RegistryVerdict(value), countryDb.lookupIpv4(value)).id
      const row = asnDb.findIpv4(value)
      columns.row[at] = row
      if (row < 0) return
      const length = block4Length(value, rows[row * STRIDE] as number, rows[row * STRIDE + 1] as number)
      columns.length[at] = length
      columns.state[at] = judge ? STATE_CODE[judge(4, (value & maskOf(length)) >>> 0, length, rows[row * STRIDE + 2] as number)] : NO_STATE
    },
    write(value, columns, at, out) {
      const tail = tailList[columns.tail[at] as number]!
      const row = columns.row[at] as number
      // scanIpv4 accepts only the canonical dotted quad (no leading zeros): the
      // text as sent is the address written from its value.
      out.bytes(K_IP)
      out.ipv4(value)
      out.bytes(K_VERSION4)
      if (row < 0) {
        out.bytes(K_NO_AS_COUNTRY)
        out.bytes(tail.unrouted)
        return
      }
      const length = columns.length[at] as number
      out.uint(rows[row * STRIDE + 2] as number)
      out.bytes(namePiece(rows[row * STRIDE + 3] as number))
      out.bytes(tail.routed)
      out.ipv4((value & maskOf(length)) >>> 0)
      out.byte(0x2f)
      out.uint(length)
      out.bytes(RPKI_ENDS[columns.state[at] as number]!)
    },
    other: (entry, judge, out) => writeOther(entry, judge, out),
  }
  /** One dotted quad alone: its lookups into a one-slot scratch, then its bytes. */
  const scratch = new Ipv4Columns(1)
  const writeIpv4 = (value: number, judge: RouteJudge | undefined, out: JsonBytes): void => {
    ipv4Answers.resolve(value, judge, scratch, 0)
    ipv4Answers.write(value, scratch, 0, out)
  }

  const v6 = asnDb.ipv6
  const groups = new Uint16Array(8)
  /**
   * An IPv6 address as bytes, from the groups the scan filled: ASN row by words,
   * country by the tree walk, the prefix from the row's range. Addresses that
   * carry an IPv4 one (mapped, compatible, NAT64, 6to4, Teredo: answered for their
   * IPv4 host, lookupOrder) are not taken here: returns false, the caller takes
   * the general path.
   */
  const writeIpv6 = (g: Uint16Array, judge: RouteJudge | undefined, out: JsonBytes): boolean => {
    const g0 = g[0] as number
    if (g0 === 0 || g0 === 0x64 || g0 === 0x2002 || (g0 === 0x2001 && g[1] === 0)) return false
    const w0 = ((g0 << 16) | (g[1] as number)) >>> 0
    const w1 = (((g[2] as number) << 16) | (g[3] as number)) >>> 0
    const w2 = (((g[4] as number) << 16) | (g[5] as number)) >>> 0
    const w3 = (((g[6] as number) << 16) | (g[7] as number)) >>> 0
    const value = groupsToBigint(g)
    const tail = tailOf(registryVerdict({ version: 6, value }), countryDb.lookupIpv6(g))
    const row = findIpv6(v6, w0, w1, w2, w3)
    out.bytes(K_IP)
    out.ascii(formatIpv6Groups(g))
    out.bytes(K_VERSION6)
    if (row < 0) {
      out.bytes(K_NO_AS_COUNTRY)
      out.bytes(tail.unrouted)
      return true
    }
    const asn = v6.asns[row] as number
    const [network, length] = block6(value, wordsToBigint(v6.starts, row), wordsToBigint(v6.ends, row))
    out.uint(asn)
    out.bytes(namePiece(v6.orgIds[row] as number))
    out.bytes(tail.routed)
    out.ascii(formatIpv6(network))
    out.byte(0x2f)
    out.uint(length)
    out.bytes(judge ? RPKI_END[judge(6, network, length, asn)] : NULL_RPKI_END)
    return true
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

  /** An entry that is not a plain dotted quad. */
  function writeOther(entry: unknown, judge: RouteJudge | undefined, out: JsonBytes): boolean {
    // A plain IPv6 address (no brackets, no zone: the scan refuses both).
    if (typeof entry === 'string') {
      const text = entry.trim()
      if (scanIpv6(text, 0, text.length, groups) === null && writeIpv6(groups, judge, out)) return true
    }
    // IPv4 inside IPv6, bracketed IPv6, bad entries: rare in a list, the object path.
    const result = lookup(entry, judge)
    out.value(result)
    return result.error === undefined
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
      return writeOther(entry, judge, out)
    },
    batch: (entries: readonly unknown[], judge: RouteJudge | undefined): BulkBatch => defineBulkBatch(ipv4Answers, entries, judge),
  })
}
