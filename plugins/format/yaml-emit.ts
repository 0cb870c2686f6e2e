// A block-style YAML emitter for JSON-shaped data (what every envelope is).
// Hand-written because js-yaml 5 takes ~4.7 ms for a 200-record list where
// JSON.stringify takes ~0.13 ms (bench/RESULTS.md). Safety rule: a string is
// written plain only when it matches a conservative pattern that no YAML 1.1 or
// 1.2 resolver reads as anything but a string; everything else is written as a
// double-quoted scalar: a JSON string literal, which is one, with the characters
// JSON leaves raw but YAML does not allow raw escaped on top (see quoted()).
// Round-trips are property-tested against js-yaml, the `yaml` package in strict
// mode and PyYAML/libyaml (test/gateway/emitters.test.ts, yaml-strict.test.ts).

const PLAIN = /^[A-Za-z_][A-Za-z0-9_./@-]*(?: [A-Za-z0-9_./@()-]+)*$/
// "e1" and "E-5": the `yaml` package's YAML 1.1 schema reads an exponent with no
// mantissa as a float (NaN), though the 1.1 spec and PyYAML say string (found by
// yaml-strict.test.ts, seed -174644963). Quoted, every reader agrees.
const RESERVED = /^(?:y|n|yes|no|on|off|true|false|null|nan|inf|e-?[0-9]+)$/i

// What JSON.stringify writes raw (or, for a lone surrogate, as an escape) that a
// YAML document may not carry: DEL and C1 (outside YAML's printable set; strict
// readers refuse the whole document), U+0085/U+2028/U+2029 (line breaks in YAML
// 1.1, so folded into spaces or a broken key), U+FEFF (a BOM "should be escaped"
// in content), U+FFFE/U+FFFF (not printable) and surrogates. Surrogate pairs are
// matched too (no u flag, to keep the test cheap) and are written unchanged.
const NEEDS_YAML_ESCAPE = /[\x7F-\x9F\u2028\u2029\uD800-\uDFFF\uFEFF\uFFFE\uFFFF]/
const YAML_ESCAPED = /[\x7F-\x9F\u2028\u2029\uFEFF\uFFFE\uFFFF]/g
const LONE_SURROGATE = /\p{Cs}/gu
const HAS_LONE_SURROGATE = /\p{Cs}/u

// \uXXXX rather than \x7F, \N, \L or \P: every YAML reader knows it (JSON has it).
const escapeChar = (c: string): string => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`

/**
 * A lone surrogate (a JS string can hold one; Unicode text cannot) has no YAML
 * form: `\uD800` names no character and libyaml refuses it. It becomes U+FFFD,
 * what a UTF-8 encoder makes of it, so what the body would carry if written raw.
 * (The JSON answer keeps it as a `\ud800` escape, which JSON allows.)
 */
function wellFormed(value: string): string {
  return value.replace(LONE_SURROGATE, '\uFFFD')
}

function quoted(value: string): string {
  // The common case (nothing outside ASCII/ordinary text) costs one regex test.
  if (!NEEDS_YAML_ESCAPE.test(value)) return JSON.stringify(value)
  return JSON.stringify(wellFormed(value)).replace(YAML_ESCAPED, escapeChar)
}

function scalarText(value: string): string {
  return PLAIN.test(value) && !RESERVED.test(value) ? value : quoted(value)
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) return 'null'
  const text = String(value)
  // YAML 1.1 floats need a dot ("1e+21" is a string to PyYAML); 1.2 reads both.
  // String() uses an exponent only from 1e21 up and below 1e-6.
  const size = Math.abs(value)
  if (size < 1e21 && (size >= 1e-6 || size === 0)) return text
  return text.includes('.') ? text : text.replace('e', '.0e')
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string') return scalarText(value)
  if (typeof value === 'number') return numberText(value)
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'bigint') return value.toString()
  return quoted(String(value))
}

function isEmptyCollection(value: unknown): string | undefined {
  if (Array.isArray(value) && value.length === 0) return '[]'
  if (isObject(value) && Object.keys(value).length === 0) return '{}'
  return undefined
}

// An implicit key ("key: value") may be at most 1024 characters long (YAML 1.1
// and 1.2; PyYAML, libyaml and `yaml` enforce it); a longer one is written as an
// explicit "? key" line. Measured in UTF-16 units, never fewer than characters.
const MAX_IMPLICIT_KEY = 1000

/**
 * Keys that repair to the same text (two lone surrogates, or one and a real
 * U+FFFD) would be a duplicate key, which YAML forbids: the first is kept. The
 * keys written before `upTo`, as repaired; only a map with such a key pays.
 */
function keysBefore(map: Record<string, unknown>, keys: readonly string[], upTo: string): Set<string> {
  const seen = new Set<string>()
  for (const key of keys) {
    if (key === upTo) break
    if (map[key] !== undefined) seen.add(wellFormed(key))
  }
  return seen
}

function emitMap(map: Record<string, unknown>, indent: string, out: string[], firstPrefix?: string): void {
  let first = true
  // Repaired keys written so far, once a key with a lone surrogate shows up.
  let seen: Set<string> | undefined
  const keys = Object.keys(map)
  for (const key of keys) {
    const value = map[key]
    if (value === undefined) continue
    let k = scalarText(key)
    // Common keys are short and plain: one test. A plain key is ASCII, so only a
    // quoted one can hold a lone surrogate.
    if (seen !== undefined || k.charCodeAt(0) === 0x22 || k.length > MAX_IMPLICIT_KEY) {
      if (seen !== undefined || HAS_LONE_SURROGATE.test(key)) {
        seen ??= keysBefore(map, keys, key)
        const text = wellFormed(key)
        if (seen.has(text)) continue
        seen.add(text)
      }
      // "? key" on its own line, then ": value" at the same indent as "?".
      if (k.length > MAX_IMPLICIT_KEY) k = `? ${k}\n${indent}`
    }
    const lead = first && firstPrefix !== undefined ? firstPrefix : indent
    first = false
    const empty = isEmptyCollection(value)
    if (empty !== undefined || (typeof value !== 'object' || value === null)) {
      out.push(`${lead}${k}: ${empty ?? scalar(value)}`)
    } else if (Array.isArray(value)) {
      out.push(`${lead}${k}:`)
      emitList(value, indent + '  ', out)
    } else {
      out.push(`${lead}${k}:`)
      emitMap(value as Record<string, unknown>, indent + '  ', out)
    }
  }
  if (first) out.push(`${firstPrefix ?? indent}{}`)
}

function emitList(list: readonly unknown[], indent: string, out: string[]): void {
  for (const item of list) {
    const empty = isEmptyCollection(item)
    if (empty !== undefined || typeof item !== 'object' || item === null) {
      out.push(`${indent}- ${empty ?? scalar(item)}`)
    } else if (Array.isArray(item)) {
      out.push(`${indent}-`)
      emitList(item, indent + '  ', out)
    } else {
      // "- key: value" with the rest of the map aligned under the first key.
      emitMap(item as Record<string, unknown>, indent + '  ', out, `${indent}- `)
    }
  }
}

export function toYaml(value: unknown): string {
  const empty = isEmptyCollection(value)
  if (empty !== undefined) return `${empty}\n`
  if (typeof value !== 'object' || value === null) return `${scalar(value)}\n`
  const out: string[] = []
  if (Array.isArray(value)) emitList(value, '', out)
  else emitMap(value as Record<string, unknown>, '', out)
  return out.join('\n') + '\n'
}
