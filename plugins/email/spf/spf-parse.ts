import { isIPv6 } from 'node:net'
import { parseDomainSpec, parseMacroString } from './spf-macro.ts'
import type { MechanismName, ParsedSpf, SpfMechanism, SpfModifier, SpfQualifier, SpfSyntaxError, SpfTerm } from './spf-types.ts'
import { MECHANISMS } from './spf-types.ts'

// RFC 7208 §4.6.1 / §12: record = version terms *SP, terms separated by one or more
// spaces (only spaces: a tab or CR inside is part of a term and breaks it). The
// whole record is checked before anything is evaluated, so an error in the last
// term is a permerror even when the first one matches.

const VERSION = /^v=spf1(?: |$)/i
const MODIFIER = /^([A-Za-z][A-Za-z0-9._-]*)=(.*)$/s
// ip4-cidr-length = "/" ("0" / %x31-39 0*1DIGIT), at most 32; ip6 likewise up to 128.
const CIDR4 = /^(?:0|[1-9]\d?)$/
const CIDR6 = /^(?:0|[1-9]\d{0,2})$/
const QNUM = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)'
const IP4_NETWORK = new RegExp(`^${QNUM}(?:\\.${QNUM}){3}$`)

export function isSpfRecord(text: string): boolean {
  return VERSION.test(text)
}

function cidr(text: string | undefined, max: number, pattern: RegExp): number | null | 'bad' {
  if (text === undefined) return null
  if (!pattern.test(text) || Number(text) > max) return 'bad'
  return Number(text)
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string }

function mechanism(raw: string): Parsed<SpfMechanism> {
  const explicit = /^[+\-~?]/.test(raw)
  const qualifier = (explicit ? raw[0] : '+') as SpfQualifier
  const body = explicit ? raw.slice(1) : raw
  const nameEnd = body.search(/[:/]/)
  const written = nameEnd < 0 ? body : body.slice(0, nameEnd)
  const name = written.toLowerCase()
  const arg = nameEnd < 0 ? '' : body.slice(nameEnd)
  const base = { kind: 'mechanism' as const, raw, qualifier, explicitQualifier: explicit, domainSpec: null, network: null, cidr4: null, cidr6: null }
  if (!(MECHANISMS as readonly string[]).includes(name)) {
    if (name === 'redirect' || name === 'exp') return { ok: false, error: `"${written}" is a modifier: write ${name}=<domain>` }
    if (written === '') return { ok: false, error: 'a qualifier without a mechanism' }
    return { ok: false, error: `unknown mechanism "${written}"` }
  }
  const m = name as MechanismName
  switch (m) {
    case 'all':
      if (arg !== '') return { ok: false, error: '"all" takes no argument' }
      return { ok: true, value: { ...base, name: m } }
    case 'include':
    case 'exists': {
      if (!arg.startsWith(':')) return { ok: false, error: `"${m}" needs a domain: ${m}:<domain>` }
      const spec = parseDomainSpec(arg.slice(1))
      if (!spec.ok) return { ok: false, error: spec.error }
      return { ok: true, value: { ...base, name: m, domainSpec: arg.slice(1) } }
    }
    case 'a':
    case 'mx':
    case 'ptr': {
      // dual-cidr-length = [ "/" ip4-cidr ] [ "//" ip6-cidr ], taken off the end (a domain-spec may itself contain "/").
      let rest = arg
      let c4: number | null = null
      let c6: number | null = null
      if (m !== 'ptr') {
        const dual = /(?:\/(\d+))?(?:\/\/(\d+))?$/.exec(rest)
        if (dual && dual[0] !== '') {
          const v4 = cidr(dual[1], 32, CIDR4)
          const v6 = cidr(dual[2], 128, CIDR6)
          if (v4 === 'bad') return { ok: false, error: `invalid IPv4 prefix length "/${dual[1]}" (0-32, no leading zeros)` }
          if (v6 === 'bad') return { ok: false, error: `invalid IPv6 prefix length "//${dual[2]}" (0-128, no leading zeros)` }
          c4 = v4
          c6 = v6
          rest = rest.slice(0, rest.length - dual[0].length)
        }
      }
      if (rest === '') return { ok: true, value: { ...base, name: m, cidr4: c4, cidr6: c6 } }
      if (!rest.startsWith(':')) return { ok: false, error: m === 'ptr' ? '"ptr" takes no prefix length' : `unexpected "${rest}" after "${m}"` }
      const spec = parseDomainSpec(rest.slice(1))
      if (!spec.ok) return { ok: false, error: spec.error }
      return { ok: true, value: { ...base, name: m, domainSpec: rest.slice(1), cidr4: c4, cidr6: c6 } }
    }
    case 'ip4':
    case 'ip6': {
      if (!arg.startsWith(':')) return { ok: false, error: `"${m}" needs an address: ${m}:<network>[/<length>]` }
      const value = arg.slice(1)
      const slash = value.indexOf('/')
      const network = slash < 0 ? value : value.slice(0, slash)
      const length = slash < 0 ? undefined : value.slice(slash + 1)
      if (m === 'ip4') {
        if (!IP4_NETWORK.test(network)) return { ok: false, error: `"${network}" is not a dotted-quad IPv4 address` }
        const c = cidr(length, 32, CIDR4)
        if (c === 'bad') return { ok: false, error: `invalid IPv4 prefix length "/${length}" (0-32, no leading zeros)` }
        return { ok: true, value: { ...base, name: m, network, cidr4: c } }
      }
      if (!isIPv6(network) || network.includes('%')) return { ok: false, error: `"${network}" is not an IPv6 address` }
      const c = cidr(length, 128, CIDR6)
      if (c === 'bad') return { ok: false, error: `invalid IPv6 prefix length "/${length}" (0-128, no leading zeros)` }
      return { ok: true, value: { ...base, name: m, network, cidr6: c } }
    }
  }
}

function modifier(raw: string, name: string, value: string): Parsed<SpfModifier> {
  const key = name.toLowerCase()
  if (key === 'redirect' || key === 'exp') {
    const spec = parseDomainSpec(value)
    if (!spec.ok) return { ok: false, error: `${key}=: ${spec.error}` }
  } else {
    const parsed = parseMacroString(value)
    if (!parsed.ok) return { ok: false, error: `${name}=: ${parsed.error}` }
  }
  return { ok: true, value: { kind: 'modifier', raw, name: key, value } }
}

// The same records (a provider's include, a popular domain) are parsed again and
// again; a parse depends on the text alone, so the last few thousand are kept.
// Callers treat the result as read-only.
const memo = new Map<string, ParsedSpf>()
const MEMO_SIZE = 4096

/** Parses a record already known to start with "v=spf1". */
export function parseSpf(record: string): ParsedSpf {
  const known = memo.get(record)
  if (known) return known
  const parsed = parse(record)
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!)
  memo.set(record, parsed)
  return parsed
}

function parse(record: string): ParsedSpf {
  const errors: SpfSyntaxError[] = []
  const terms: SpfTerm[] = []
  // SPF records are 7-bit ASCII (RFC 7208 §3.1); a UTF-8 BOM or a control character is an error, not a separator.
  const bad = /[^\x20-\x7e]/.exec(record)
  if (bad) errors.push({ term: '', message: `the record contains a non-ASCII or control character (U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})` })
  for (const raw of record.slice(6).split(' ')) {
    if (raw === '') continue
    const mod = MODIFIER.exec(raw)
    const parsed = mod ? modifier(raw, mod[1]!, mod[2]!) : mechanism(raw)
    if (parsed.ok) terms.push(parsed.value)
    else errors.push({ term: raw, message: parsed.error })
  }
  const mechanisms = terms.filter((t): t is SpfMechanism => t.kind === 'mechanism')
  const modifiers = terms.filter((t): t is SpfModifier => t.kind === 'modifier')
  for (const name of ['redirect', 'exp']) {
    const found = modifiers.filter((m) => m.name === name)
    if (found.length > 1) errors.push({ term: found[1]!.raw, message: `"${name}=" appears ${found.length} times; it may appear at most once` })
  }
  return {
    terms,
    mechanisms,
    redirect: modifiers.find((m) => m.name === 'redirect') ?? null,
    exp: modifiers.find((m) => m.name === 'exp') ?? null,
    errors,
  }
}
