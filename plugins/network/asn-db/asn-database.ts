import { formatIpv4Number, formatIpv6 } from '../../../runtime/ip/format.ts'
import type { IpAddress } from '../../../runtime/ip/ip-types.ts'
import type { Ipv4Ranges } from './ipv4-ranges.ts'
import type { OrgNames } from './org-table.ts'
import { STRIDE, findIpv4 } from './ipv4-ranges.ts'
import type { Ipv6Ranges } from './ipv6-ranges.ts'
import { findIpv6, wordsToBigint } from './ipv6-ranges.ts'

export interface AsnMatch {
  asn: number
  /** The AS organisation name as the data has it. */
  name: string
  /** The data row's range containing the address (not necessarily a CIDR block). */
  rangeStart: string
  rangeEnd: string
}

export interface AsnDatabaseStats {
  ipv4Ranges: number
  ipv6Ranges: number
  /** Organisation names stored: one per ASN (two if the data gives an ASN two names). */
  names: number
  /** Input rows that overlapped another and were cut (see flatten-ranges.ts). */
  overlaps: number
  /** Non-empty lines that were not data rows. */
  skipped: number
  loadMs: number
}

/**
 * IP -> ASN and AS name from sorted range tables. `findIpv4` + `asnAt`/`nameAt`
 * is the allocation-free path (bench/asn-lookup.bench.ts); `lookup` builds the
 * answer object for the API.
 */
export class AsnDatabase {
  constructor(
    readonly ipv4: Ipv4Ranges,
    readonly ipv6: Ipv6Ranges,
    readonly names: OrgNames,
    readonly stats: AsnDatabaseStats,
  ) {}

  /** Row of the IPv4 range containing `ip` (an unsigned 32-bit number), or -1. */
  findIpv4(ip: number): number {
    return findIpv4(this.ipv4, ip)
  }

  ipv4Asn(row: number): number {
    return this.ipv4.rows[row * STRIDE + 2] as number
  }

  ipv4Name(row: number): string {
    return this.names.get(this.ipv4.rows[row * STRIDE + 3] as number)
  }

  /** First and last address of an IPv4 row, as unsigned 32-bit numbers. */
  ipv4Range(row: number): [number, number] {
    return [this.ipv4.rows[row * STRIDE] as number, this.ipv4.rows[row * STRIDE + 1] as number]
  }

  findIpv6(value: bigint): number {
    return findIpv6(
      this.ipv6,
      Number(value >> 96n),
      Number((value >> 64n) & 0xffffffffn),
      Number((value >> 32n) & 0xffffffffn),
      Number(value & 0xffffffffn),
    )
  }

  ipv6Asn(row: number): number {
    return this.ipv6.asns[row] as number
  }

  ipv6Name(row: number): string {
    return this.names.get(this.ipv6.orgIds[row] as number)
  }

  /** First and last address of an IPv6 row. */
  ipv6Range(row: number): [bigint, bigint] {
    return [wordsToBigint(this.ipv6.starts, row), wordsToBigint(this.ipv6.ends, row)]
  }

  lookup(address: IpAddress): AsnMatch | null {
    if (address.version === 4) {
      const row = this.findIpv4(Number(address.value))
      if (row < 0) return null
      return {
        asn: this.ipv4Asn(row),
        name: this.ipv4Name(row),
        rangeStart: formatIpv4Number(this.ipv4.rows[row * STRIDE] as number),
        rangeEnd: formatIpv4Number(this.ipv4.rows[row * STRIDE + 1] as number),
      }
    }
    const row = this.findIpv6(address.value)
    if (row < 0) return null
    return {
      asn: this.ipv6.asns[row] as number,
      name: this.names.get(this.ipv6.orgIds[row] as number),
      rangeStart: formatIpv6(wordsToBigint(this.ipv6.starts, row)),
      rangeEnd: formatIpv6(wordsToBigint(this.ipv6.ends, row)),
    }
  }
}
