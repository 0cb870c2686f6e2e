/**
 * Strict IPv4 dotted-quad: exactly four decimal octets 0-255, no leading zeros.
 *
 * inet_aton-style forms (`127.1`, `0x7f.0.0.1`, `0177.0.0.1`, `2130706433`) are
 * refused because different parsers read them differently, which is how SSRF
 * filters get bypassed; Node's net.isIPv4 draws the same line.
 *
 * Two functions on purpose: `scanIpv4` is the allocation-free hot path used by
 * bulk callers (summarize), `explainIpv4` runs only after a failure to say why.
 * The tests check that they agree on every input.
 */

/** The address as an unsigned 32-bit number, or -1. Reads s[from, to). */
export function scanIpv4(s: string, from: number, to: number): number {
  let value = 0
  let octet = 0
  let digits = 0
  let dots = 0
  let first = 0
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c === 46) {
      if (digits === 0 || dots === 3) return -1
      value = value * 256 + octet
      octet = 0
      digits = 0
      dots++
    } else {
      const d = c - 48
      if (d < 0 || d > 9) return -1
      if (digits === 0) first = d
      else if (first === 0) return -1
      octet = octet * 10 + d
      if (octet > 255) return -1
      digits++
    }
  }
  if (dots !== 3 || digits === 0) return -1
  return value * 256 + octet
}

/** Why s[from, to) is not a dotted quad, or null when it is one. */
export function explainIpv4(s: string, from = 0, to = s.length): string | null {
  const text = s.slice(from, to)
  if (text === '') return 'the address is empty; expected four decimal octets like 192.0.2.1'
  const parts = text.split('.')
  if (parts.length === 1 && /^[0-9]+$/.test(text)) {
    const n = Number(text)
    const hint = n <= 0xffffffff ? ` (${text} would be ${formatUint32(n)})` : ''
    return `a bare number is not accepted; write the address as four dotted decimal octets${hint}`
  }
  if (parts.length !== 4) {
    return (
      `it has ${parts.length} part${parts.length === 1 ? '' : 's'}; an IPv4 address is exactly four decimal octets ` +
      'like 192.0.2.1 (short forms such as 127.1 are not accepted)'
    )
  }
  for (let i = 0; i < 4; i++) {
    const part = parts[i] as string
    const n = i + 1
    if (part === '') return `octet ${n} is empty; each of the four octets needs a number 0-255`
    if (/^0[xX]/.test(part)) {
      return `octet ${n} "${part}" is hexadecimal; only decimal octets are accepted (write it as a number 0-255)`
    }
    const bad = [...part].find((ch) => ch < '0' || ch > '9')
    if (bad !== undefined) {
      return `octet ${n} "${part}" contains ${describeChar(bad)}; IPv4 octets are decimal digits 0-9`
    }
    if (part.length > 1 && part.startsWith('0')) {
      return (
        `octet ${n} "${part}" has a leading zero; write it as ${Number(part)} ` +
        '(leading zeros are refused because some systems read them as octal)'
      )
    }
    if (Number(part) > 255) return `octet ${n} is ${part}; each IPv4 octet must be 0-255`
  }
  return null
}

/** A printable name for a character in an error message (spaces and controls are invisible). */
export function describeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0
  if (ch === ' ') return 'a space'
  if (code < 32 || code === 127) return `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`
  if (code > 126) return `"${ch}" (U+${code.toString(16).toUpperCase().padStart(4, '0')})`
  return `"${ch}"`
}

function formatUint32(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`
}
