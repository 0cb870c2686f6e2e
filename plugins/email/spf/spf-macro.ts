// SPF macros (RFC 7208 §7): syntax checked when the record is parsed (an error
// anywhere is a permerror, even in a term never reached), expanded when a term is
// evaluated. Expansion is async only because %{p} needs DNS.

export type MacroPart =
  | { kind: 'literal'; text: string }
  | { kind: 'macro'; letter: string; upper: boolean; digits: number | null; reverse: boolean; delimiters: string }

export type MacroParse =
  | {
      ok: true
      parts: MacroPart[]
      /** The raw text after the last macro-expand ("%{..}", "%%", "%_", "%-"); all of it if there is none. */
      literalTail: string
      endsWithMacro: boolean
    }
  | { ok: false; error: string }

const TERM_LETTERS = new Set(['s', 'l', 'o', 'd', 'i', 'p', 'h', 'v'])
const EXP_LETTERS = new Set([...TERM_LETTERS, 'c', 'r', 't'])

/**
 * macro-string (or explain-string with `explain`, which also allows spaces and the
 * c, r, t letters). Literals are visible ASCII except "%" (%x21-24 / %x26-7E).
 */
export function parseMacroString(text: string, options: { explain?: boolean } = {}): MacroParse {
  const letters = options.explain ? EXP_LETTERS : TERM_LETTERS
  const parts: MacroPart[] = []
  let literal = ''
  let tailStart = 0
  const flush = () => {
    if (literal) parts.push({ kind: 'literal', text: literal })
    literal = ''
  }
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string
    const code = ch.charCodeAt(0)
    if (ch !== '%') {
      if (code >= 0x21 && code <= 0x7e) literal += ch
      else if (ch === ' ' && options.explain) literal += ch
      else return { ok: false, error: `character ${JSON.stringify(ch)} is not allowed here` }
      continue
    }
    const next = text[i + 1]
    if (next === '%' || next === '_' || next === '-') {
      literal += next === '%' ? '%' : next === '_' ? ' ' : '%20'
      i++
      tailStart = i + 1
      continue
    }
    if (next !== '{') return { ok: false, error: `"%" must be followed by "{", "%", "_" or "-" (write "%%" for a literal percent sign)` }
    const close = text.indexOf('}', i + 2)
    if (close < 0) return { ok: false, error: 'macro "%{" is never closed' }
    const body = text.slice(i + 2, close)
    const m = /^([A-Za-z])(\d*)([rR]?)([.\-+,/_=]*)$/.exec(body)
    if (!m) return { ok: false, error: `macro "%{${body}}" is malformed` }
    const letter = m[1]!.toLowerCase()
    if (!letters.has(letter)) {
      return { ok: false, error: EXP_LETTERS.has(letter) ? `macro letter "${m[1]}" is only allowed in explanation text` : `unknown macro letter "${m[1]}"` }
    }
    let digits: number | null = null
    if (m[2]) {
      digits = Number(m[2])
      if (digits === 0) return { ok: false, error: `macro "%{${body}}": the number of parts must be non-zero` }
    }
    flush()
    parts.push({ kind: 'macro', letter, upper: m[1] !== letter, digits, reverse: m[3] !== '', delimiters: m[4] ?? '' })
    i = close
    tailStart = close + 1
  }
  flush()
  return { ok: true, parts, literalTail: text.slice(tailStart), endsWithMacro: tailStart > 0 && tailStart === text.length }
}

// "." toplabel ["."] at the very end; toplabel = alphanumerics with at least one letter, or an LDH label with a dash inside.
const TOPLABEL_END = /\.(?:[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*|[A-Za-z0-9]+-[A-Za-z0-9-]*[A-Za-z0-9])\.?$/

/**
 * domain-spec = macro-string domain-end, domain-end = "." toplabel ["."] / macro-expand.
 * The toplabel rule keeps "a:192.0.2.1" and "a:example.com:25" out.
 */
const specs = new Map<string, MacroParse>()

export function parseDomainSpec(text: string): MacroParse {
  const known = specs.get(text)
  if (known) return known
  const parsed = domainSpec(text)
  if (specs.size >= 4096) specs.delete(specs.keys().next().value!)
  specs.set(text, parsed)
  return parsed
}

function domainSpec(text: string): MacroParse {
  if (text === '') return { ok: false, error: 'the domain is empty' }
  const parsed = parseMacroString(text)
  if (!parsed.ok || parsed.endsWithMacro) return parsed
  if (!TOPLABEL_END.test(parsed.literalTail)) {
    return { ok: false, error: `"${text}" does not end in a valid top-level label (like ".com"); it is not a domain name` }
  }
  return parsed
}

export interface MacroContext {
  sender: string
  /** Local part of the sender ("postmaster" when it had none). */
  local: string
  senderDomain: string
  /** <domain> of the check_host() call that is expanding. */
  domain: string
  /** %{i} */
  ipDotted: string
  /** %{c} */
  ipReadable: string
  ipVersion: 4 | 6
  helo: string
  /** %{r}; "unknown" when the checking host has no name to give. */
  receiver: string
  /** %{t}, seconds since the epoch. */
  now: number
  /** %{p}: the validated name of the client, computed (with DNS) only if asked for. */
  validatedName(): Promise<string>
}

const UNRESERVED = /[A-Za-z0-9\-._~]/

/** Uppercase macro letters are URL-escaped: everything outside RFC 3986's unreserved set. */
export function urlEscape(value: string): string {
  let out = ''
  for (const ch of value) {
    if (UNRESERVED.test(ch)) out += ch
    else for (const byte of Buffer.from(ch, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

async function letterValue(letter: string, ctx: MacroContext): Promise<string> {
  switch (letter) {
    case 's':
      return ctx.sender
    case 'l':
      return ctx.local
    case 'o':
      return ctx.senderDomain
    case 'd':
      return ctx.domain
    case 'i':
      return ctx.ipDotted
    case 'p':
      return ctx.validatedName()
    case 'v':
      return ctx.ipVersion === 4 ? 'in-addr' : 'ip6'
    case 'h':
      return ctx.helo
    case 'c':
      return ctx.ipReadable
    case 'r':
      return ctx.receiver
    case 't':
      return String(ctx.now)
    default:
      return ''
  }
}

export function needsValidatedName(parts: readonly MacroPart[]): boolean {
  return parts.some((p) => p.kind === 'macro' && p.letter === 'p')
}

export async function expandMacro(parts: readonly MacroPart[], ctx: MacroContext): Promise<string> {
  let out = ''
  for (const part of parts) {
    if (part.kind === 'literal') {
      out += part.text
      continue
    }
    let value = await letterValue(part.letter, ctx)
    if (part.digits !== null || part.reverse || part.delimiters) {
      const split = part.delimiters ? new RegExp(`[${part.delimiters.replace(/[-\\\]^/]/g, '\\$&')}]`) : /\./
      let pieces = value.split(split)
      if (part.reverse) pieces = pieces.reverse()
      if (part.digits !== null && part.digits < pieces.length) pieces = pieces.slice(pieces.length - part.digits)
      value = pieces.join('.')
    }
    out += part.upper ? urlEscape(value) : value
  }
  return out
}

/**
 * An expanded domain-spec made ready for a query: the trailing dot dropped, and a
 * name over 253 characters cut from the left, label by label (RFC 7208 §7.3).
 */
export function finishDomain(expanded: string): string {
  let name = expanded.endsWith('.') ? expanded.slice(0, -1) : expanded
  while (name.length > 253) {
    const dot = name.indexOf('.')
    if (dot < 0) break
    name = name.slice(dot + 1)
  }
  return name
}

