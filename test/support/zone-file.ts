// RFC 1035 §5 master files, enough for the fixtures and hand-written test zones:
// $ORIGIN, $TTL, @, relative names, a blank owner meaning "same as before", TTL and
// class in either order (BIND-style 1h30m TTLs too), parentheses across lines,
// comments, and quoted strings with \X / \DDD escapes. No npm zone parser is installed.

import { readFileSync } from 'node:fs'
import { encodeName, lowercaseWire, nameToText } from '../../runtime/net/dns/dns-name.ts'
import { classCode, typeCode, typeName, type DnsTypeMnemonic } from '../../runtime/net/dns/dns-types.ts'
import { encodeRdata } from './zone-rdata.ts'
import { absoluteName, endsWithUnescapedDot, parseTtl, type ZoneToken } from './zone-text.ts'

export interface ZoneRecord {
  /** Absolute owner, presentation form, no trailing dot ("." for the root), case as written. */
  owner: string
  ownerWire: Buffer
  /** Lowercased owner text: the key names are compared by. */
  key: string
  type: DnsTypeMnemonic
  typeCode: number
  classCode: number
  ttl: number
  rdata: Buffer
  line: number
}

export class ZoneSyntaxError extends Error {
  override readonly name = 'ZoneSyntaxError'
  constructor(message: string, readonly line: number) {
    super(`line ${line}: ${message}`)
  }
}

interface Entry {
  line: number
  blankOwner: boolean
  tokens: ZoneToken[]
}

/** Splits a master file into entries: one per record or directive, parentheses joined. */
export function tokenizeZone(text: string): Entry[] {
  const entries: Entry[] = []
  let line = 1
  let depth = 0
  let inQuote = false
  let token: string | null = null
  let quoted = false
  let entry: Entry | null = null
  let atLineStart = true

  const endToken = (): void => {
    if (token !== null) {
      if (!entry) entry = { line, blankOwner: false, tokens: [] }
      entry.tokens.push({ text: token, quoted })
    }
    token = null
    quoted = false
  }
  const endEntry = (): void => {
    endToken()
    if (entry && entry.tokens.length > 0) entries.push(entry)
    entry = null
  }

  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string
    if (atLineStart) {
      atLineStart = false
      if (depth === 0 && (ch === ' ' || ch === '\t')) entry = { line, blankOwner: true, tokens: [] }
    }
    if (inQuote) {
      if (ch === '\\') {
        token += ch + (text[i + 1] ?? '')
        i++
      } else if (ch === '"') inQuote = false
      else {
        if (ch === '\n') line++
        token += ch
      }
      continue
    }
    switch (ch) {
      case '\\':
        token = (token ?? '') + ch + (text[i + 1] ?? '')
        i++
        break
      case '"':
        inQuote = true
        quoted = true
        token ??= ''
        break
      case ';':
        while (i + 1 < text.length && text[i + 1] !== '\n') i++
        break
      case '(':
        endToken()
        depth++
        break
      case ')':
        endToken()
        if (depth === 0) throw new ZoneSyntaxError('unbalanced ")"', line)
        depth--
        break
      case '\n':
        if (depth === 0) endEntry()
        else endToken()
        line++
        atLineStart = true
        break
      case ' ':
      case '\t':
      case '\r':
        endToken()
        break
      default:
        token = (token ?? '') + ch
    }
  }
  if (inQuote) throw new ZoneSyntaxError('unterminated quoted string', line)
  if (depth !== 0) throw new ZoneSyntaxError('unbalanced "("', line)
  endEntry()
  return entries
}

export interface ParseZoneOptions {
  /** Origin before any $ORIGIN, without trailing dot. */
  origin?: string
  /** TTL before any $TTL or explicit TTL. */
  defaultTtl?: number
}

export function parseZone(text: string, options: ParseZoneOptions = {}): ZoneRecord[] {
  let origin = options.origin
  let defaultTtl = options.defaultTtl
  let lastTtl: number | undefined
  let lastOwner: string | undefined
  const records: ZoneRecord[] = []

  for (const entry of tokenizeZone(text)) {
    const tokens = [...entry.tokens]
    const first = tokens[0] as ZoneToken
    if (!entry.blankOwner && first.text.startsWith('$') && !first.quoted) {
      const directive = first.text.toUpperCase()
      const arg = tokens[1]?.text
      if (directive === '$ORIGIN') {
        if (!arg) throw new ZoneSyntaxError('$ORIGIN needs a name', entry.line)
        origin = absoluteName(arg, origin ?? '.')
      } else if (directive === '$TTL') {
        const ttl = arg === undefined ? undefined : parseTtl(arg)
        if (ttl === undefined) throw new ZoneSyntaxError(`bad $TTL "${arg ?? ''}"`, entry.line)
        defaultTtl = ttl
      } else throw new ZoneSyntaxError(`unsupported directive ${first.text}`, entry.line)
      continue
    }

    let owner: string
    if (entry.blankOwner) {
      if (lastOwner === undefined) throw new ZoneSyntaxError('record without an owner', entry.line)
      owner = lastOwner
    } else {
      const ownerText = (tokens.shift() as ZoneToken).text
      if (origin === undefined && !endsWithUnescapedDot(ownerText)) throw new ZoneSyntaxError(`relative name "${ownerText}" without an origin`, entry.line)
      owner = absoluteName(ownerText, origin ?? '.')
    }
    lastOwner = owner

    let ttl: number | undefined
    let klass: number | undefined
    let type: number | undefined
    while (tokens.length > 0 && type === undefined) {
      const t = (tokens.shift() as ZoneToken).text
      const asClass = classCode(t)
      const asTtl = parseTtl(t)
      if (klass === undefined && asClass !== undefined && !/^ANY$/i.test(t)) klass = asClass
      else if (ttl === undefined && asTtl !== undefined) ttl = asTtl
      else {
        type = typeCode(t)
        if (type === undefined) throw new ZoneSyntaxError(`unknown type "${t}"`, entry.line)
      }
    }
    if (type === undefined) throw new ZoneSyntaxError('record without a type', entry.line)
    ttl ??= defaultTtl ?? lastTtl
    if (ttl === undefined) throw new ZoneSyntaxError('no TTL and no $TTL', entry.line)
    lastTtl = ttl

    let rdata: Buffer
    try {
      rdata = encodeRdata(type, tokens, origin ?? '.')
    } catch (error) {
      throw new ZoneSyntaxError(`${typeName(type)}: ${(error as Error).message}`, entry.line)
    }
    const ownerWire = encodeName(owner)
    records.push({
      owner: nameToText(ownerWire),
      ownerWire,
      key: nameToText(lowercaseWire(ownerWire)),
      type: typeName(type),
      typeCode: type,
      classCode: klass ?? 1,
      ttl,
      rdata,
      line: entry.line,
    })
  }
  return records
}

/** A zone given as master-file text, or as the path of one (any string without a newline). */
export function loadZone(source: string, options: ParseZoneOptions = {}): ZoneRecord[] {
  const text = source.includes('\n') ? source : readFileSync(source, 'utf8')
  return parseZone(text, options)
}
