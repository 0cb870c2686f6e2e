import { describeChar, explainIpv4, scanIpv4 } from './parse-ipv4.ts'

/**
 * IPv6 text form of RFC 4291 section 2.2: eight groups of 1-4 hex digits, one
 * optional "::" standing for one or more zero groups, and an optional dotted IPv4
 * tail standing for the last two groups. Zone ids and brackets are handled by the
 * caller (parse.ts), so a "%" or "[" here is just a bad character.
 *
 * One walk both parses and explains: reasons are only built on failure, so the
 * success path allocates nothing beyond the caller's group buffer.
 */

const HEX = new Int8Array(128).fill(-1)
for (let i = 0; i < 10; i++) HEX[48 + i] = i
for (let i = 0; i < 6; i++) {
  HEX[65 + i] = 10 + i
  HEX[97 + i] = 10 + i
}

/**
 * Fills `out` (8 groups) from s[from, to). Returns null on success, otherwise the
 * reason the text is not an IPv6 address.
 */
export function scanIpv6(s: string, from: number, to: number, out: Uint16Array): string | null {
  if (from >= to) return 'the address is empty'
  let n = 0
  let gap = -1
  let i = from
  if (s.charCodeAt(i) === 58) {
    if (s.charCodeAt(i + 1) !== 58 || i + 1 >= to) {
      return 'it starts with a single ":"; an address can only begin with a hex group or "::"'
    }
    gap = 0
    i += 2
    if (i === to) {
      out.fill(0)
      return null
    }
  }
  for (;;) {
    const start = i
    let value = 0
    while (i < to) {
      const c = s.charCodeAt(i)
      const h = c < 128 ? (HEX[c] as number) : -1
      if (h < 0) break
      value = value * 16 + h
      i++
    }
    const digits = i - start
    if (i < to && s.charCodeAt(i) === 46) {
      return ipv4Tail(s, start, to, n, gap, out)
    }
    if (digits === 0) {
      if (i < to && s.charCodeAt(i) === 58) {
        return 'it contains ":::"; write "::" once to stand for a run of zero groups'
      }
      return i < to ? badChar(s, i, n) : 'it ends with a single ":"; an address can only end with a hex group or "::"'
    }
    if (digits > 4) {
      return `group ${n + 1} "${s.slice(start, i)}" has ${digits} hex digits; each IPv6 group has at most 4`
    }
    if (n === 8) return tooMany()
    out[n++] = value
    if (i === to) break
    if (s.charCodeAt(i) !== 58) return badChar(s, i, n)
    i++
    if (i < to && s.charCodeAt(i) === 58) {
      if (gap >= 0) return '"::" appears more than once; it may stand for only one run of zero groups'
      gap = n
      i++
      if (i === to) break
    } else if (i === to) {
      return 'it ends with a single ":"; an address can only end with a hex group or "::"'
    }
  }
  return place(n, gap, out)
}

/** Moves the groups written after "::" to the end and zero-fills the gap. */
function place(n: number, gap: number, out: Uint16Array): string | null {
  if (gap < 0) {
    if (n !== 8) {
      return `it has ${n} group${n === 1 ? '' : 's'}; an IPv6 address has 8 groups, or "::" to stand for the missing zero groups`
    }
    return null
  }
  if (n >= 8) {
    return `"::" must stand for at least one zero group, but all 8 groups are already written; remove the "::"`
  }
  const tail = n - gap
  const shift = 8 - n
  for (let k = tail - 1; k >= 0; k--) out[gap + shift + k] = out[gap + k] as number
  for (let k = gap; k < gap + shift; k++) out[k] = 0
  return null
}

function ipv4Tail(s: string, start: number, to: number, n: number, gap: number, out: Uint16Array): string | null {
  const v4 = scanIpv4(s, start, to)
  if (v4 < 0) {
    const colon = s.indexOf(':', start)
    if (colon >= 0 && colon < to) {
      return 'a dotted IPv4 part may only appear at the end, as the last 32 bits of the address'
    }
    return `the embedded IPv4 part "${s.slice(start, to)}" is invalid: ${explainIpv4(s, start, to) ?? 'not a dotted quad'}`
  }
  if (n > 6) return tooMany()
  out[n] = Math.floor(v4 / 65536)
  out[n + 1] = v4 & 0xffff
  return place(n + 2, gap, out)
}

function tooMany(): string {
  return 'it has more than 8 groups; an IPv6 address has exactly 128 bits (8 groups of 16, an IPv4 tail counts as 2)'
}

function badChar(s: string, i: number, n: number): string {
  const ch = String.fromCodePoint(s.codePointAt(i) ?? 0)
  return (
    `it contains ${describeChar(ch)} in group ${n + 1}; IPv6 addresses are hex digits 0-9 a-f separated by ":" ` +
    '(with at most one "::" and an optional dotted IPv4 tail)'
  )
}

/** Eight 16-bit groups as one 128-bit value. */
export function groupsToBigint(g: Uint16Array): bigint {
  const hi = ((g[0] as number) * 65536 + (g[1] as number)) * 65536 + (g[2] as number)
  const mid = (g[3] as number) * 65536 + (g[4] as number)
  const lo = ((g[5] as number) * 65536 + (g[6] as number)) * 65536 + (g[7] as number)
  // hi and lo are 48-bit and mid 32-bit, all exact in a double: three BigInt
  // conversions instead of eight.
  return (BigInt(hi) << 80n) | (BigInt(mid) << 48n) | BigInt(lo)
}
