import { parseCidr } from '../../../runtime/ip/parse-cidr.ts'
import { scanIpv4 } from '../../../runtime/ip/parse-ipv4.ts'
import { IPV4_MASK, IPV4_SIZE, ipv4RangesToCidrs, mergeIpv4Ranges } from './summarize-ipv4.ts'
import { Ipv6Ranges, scanIpv6Block, summarizeIpv6 } from './summarize-ipv6.ts'
import { rangeWorkspace } from './workspace.ts'

export interface SummarizeInvalid {
  /** Position in the input list, from 0. */
  index: number
  /** The entry as given (non-strings are shown as JSON). */
  input: string
  reason: string
}

export interface SummarizeResult {
  /** Fewest CIDR blocks covering exactly the valid IPv4 input, in address order. */
  ipv4: string[]
  /** The same for IPv6 (IPv4-mapped blocks such as ::ffff:0:0/96 stay IPv6). */
  ipv6: string[]
  invalid: SummarizeInvalid[]
  stats: {
    entries: number
    valid: number
    invalid: number
    ipv4Input: number
    ipv6Input: number
    ipv4Output: number
    ipv6Output: number
    /** Valid entries whose address had host bits set (`10.1.2.3/8`), read as their network. */
    hostBitsCleared: number
    /** Addresses covered, exact decimal. */
    ipv4Addresses: string
    ipv6Addresses: string
  }
}

/**
 * The smallest set of CIDR blocks covering exactly the addresses of the valid
 * entries, per family, sorted; plus every invalid entry with its reason.
 *
 * Entry rules: surrounding whitespace is ignored; a bare address is a host block
 * (/32, /128); host bits set are cleared (`10.1.2.3/8` is 10.0.0.0/8) and counted
 * in stats; blank entries are invalid (callers splitting text drop blank lines);
 * zone ids are invalid.
 *
 * IPv4 entries written plainly (`a.b.c.d`, `a.b.c.d/n`) never leave the inline
 * char-code scan below, and IPv6 `addr/len` ones take scanIpv6Block; anything else
 * (whitespace, brackets, errors) goes through parseCidr, which also writes the
 * reasons. The tests check that the fast paths accept exactly what parseCidr does.
 */
export function summarize(entries: readonly unknown[]): SummarizeResult {
  const count = entries.length
  const [starts, ends, scratch] = rangeWorkspace(count)
  let n4 = 0
  const v6 = new Ipv6Ranges()
  const invalid: SummarizeInvalid[] = []
  let hostBitsCleared = 0

  for (let i = 0; i < count; i++) {
    const s = entries[i]
    if (typeof s !== 'string') {
      invalid.push({ index: i, input: describeValue(s), reason: `expected a CIDR string, got ${kindOf(s)}` })
      continue
    }
    const len = s.length
    let addrEnd = len
    let prefix = 32
    const last = s.charCodeAt(len - 1) - 48
    if (last >= 0 && last <= 9) {
      const c2 = s.charCodeAt(len - 2)
      if (c2 === 47) {
        prefix = last
        addrEnd = len - 2
      } else if (c2 >= 49 && c2 <= 57 && s.charCodeAt(len - 3) === 47) {
        prefix = (c2 - 48) * 10 + last
        addrEnd = len - 3
      }
    }
    if (prefix <= 32) {
      const address = scanIpv4(s, 0, addrEnd)
      if (address >= 0) {
        const start = (address & (IPV4_MASK[prefix] as number)) >>> 0
        if (start !== address) hostBitsCleared++
        starts[n4] = start
        ends[n4] = start + (IPV4_SIZE[prefix] as number) - 1
        n4++
        continue
      }
    }
    if (s.indexOf(':') >= 0) {
      const scanned = scanIpv6Block(s, v6)
      if (scanned >= 0) {
        hostBitsCleared += scanned
        continue
      }
    }
    const parsed = parseCidr(s.trim(), { bare: 'host' })
    if (!parsed.ok) {
      invalid.push({ index: i, input: s, reason: parsed.error.reason })
      continue
    }
    const block = parsed.value
    if (block.hostBitsSet) hostBitsCleared++
    if (block.version === 4) {
      const start = Number(block.network)
      starts[n4] = start
      ends[n4] = start + (IPV4_SIZE[block.prefixLength] as number) - 1
      n4++
    } else {
      v6.addBigint(block.network, block.prefixLength)
    }
  }

  const ipv6Input = v6.count
  const ranges = mergeIpv4Ranges(starts, ends, n4, scratch)
  let ipv4Addresses = 0
  for (let r = 0; r < ranges; r++) ipv4Addresses += (ends[r] as number) - (starts[r] as number) + 1
  const ipv4 = ipv4RangesToCidrs(starts, ends, ranges)
  const { cidrs: ipv6, addresses: ipv6Addresses } = summarizeIpv6(v6)

  return {
    ipv4,
    ipv6,
    invalid,
    stats: {
      entries: count,
      valid: n4 + ipv6Input,
      invalid: invalid.length,
      ipv4Input: n4,
      ipv6Input,
      ipv4Output: ipv4.length,
      ipv6Output: ipv6.length,
      hostBitsCleared,
      ipv4Addresses: String(ipv4Addresses),
      ipv6Addresses: ipv6Addresses.toString(),
    },
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

function describeValue(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
