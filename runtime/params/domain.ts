import { isIP } from 'node:net'
import { domainToASCII } from 'node:url'
import { z } from 'zod'

// Domain input as people paste it: "https://Bücher.Example./path", "EXAMPLE.com.",
// "example.com:443". Normalized before validation (DESIGN §2): scheme, userinfo,
// port, path, query and trailing dot dropped, lowercased, IDN to punycode. Checked
// for syntax only (labels, lengths, IDNA) — never against a TLD list: new, private
// and test TLDs are names like any other, and DNS says whether they exist.

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/

export type DomainCheck = { ok: true; name: string } | { ok: false; reason: string }

// net.isIP runs a very large IPv6 regex; only strings that could be addresses need it.
const maybeIp = (s: string): boolean => s.includes(':') || /^[\d.]+$/.test(s)
const isIpLike = (s: string): boolean => maybeIp(s) && isIP(s) !== 0

// The same names arrive again and again (and validation runs before the cache):
// remember the last few thousand verdicts.
const memo = new Map<string, DomainCheck>()
const MEMO_SIZE = 4096

export function normalizeDomain(input: string): DomainCheck {
  const known = memo.get(input)
  if (known !== undefined) return known
  const result = normalize(input)
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!)
  memo.set(input, result)
  return result
}

function normalize(input: string): DomainCheck {
  let text = input.trim()
  if (text === '') return { ok: false, reason: 'is empty; give a domain name like example.com' }
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)
  if (scheme) text = text.slice(scheme[0].length)
  text = text.replace(/[/?#].*$/s, '')
  text = text.replace(/^[^@]*@/, '')
  if (/^\[.*\]/.test(text) || isIpLike(text)) return { ok: false, reason: `"${input}" is an IP address, not a domain name` }
  text = text.replace(/:\d{1,5}$/, '')
  if (text.endsWith('.')) text = text.slice(0, -1)
  if (text === '') return { ok: false, reason: 'is empty; give a domain name like example.com' }
  if (/\s/.test(text)) return { ok: false, reason: `"${input}" contains whitespace` }
  const ascii = domainToASCII(text.toLowerCase())
  if (ascii === '') return { ok: false, reason: `"${input}" is not a valid domain name (IDNA conversion failed)` }
  // domainToASCII maps full-width digits and the like; the result may now be an IP.
  if (isIpLike(ascii)) return { ok: false, reason: `"${input}" is an IP address, not a domain name` }
  if (ascii.length > 253) return { ok: false, reason: `"${input}" is ${ascii.length} characters long; a domain name has at most 253` }
  const labels = ascii.split('.')
  for (const label of labels) {
    if (label === '') return { ok: false, reason: `"${input}" has an empty label (two dots in a row, or a leading dot)` }
    if (label.length > 63) return { ok: false, reason: `label "${label.slice(0, 20)}…" is ${label.length} characters; labels have at most 63` }
    if (!LABEL.test(label)) {
      return { ok: false, reason: `label "${label}" may only hold letters, digits, hyphens and underscores, and may not start or end with a hyphen` }
    }
  }
  if (labels.length > 1 && /^\d+$/.test(labels.at(-1)!)) {
    return { ok: false, reason: `"${input}" ends in an all-numeric label, so it is neither a domain name nor a dotted-quad IPv4 address` }
  }
  return { ok: true, name: ascii }
}

/** A DNS name parameter (underscore labels allowed: _dmarc, _domainkey, _mta-sts). */
export const DomainName = z
  .string()
  .transform((value, ctx) => {
    const result = normalizeDomain(value)
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: result.reason })
      return z.NEVER
    }
    return result.name
  })
  .meta({ description: 'Domain name; IDN, trailing dot, scheme and path are accepted and normalized', example: 'example.com' })
