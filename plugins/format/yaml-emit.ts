// A block-style YAML emitter for JSON-shaped data (what every envelope is).
// Hand-written because js-yaml 5 takes ~4.7 ms for a 200-record list where
// JSON.stringify takes ~0.13 ms (bench/RESULTS.md). Safety rule: a string is
// written plain only when it matches a conservative pattern that no YAML 1.1 or
// 1.2 resolver reads as anything but a string; everything else is written as a
// JSON string literal, which is a valid YAML double-quoted scalar. Round-trips are
// property-tested against js-yaml's loader (test/gateway/yaml-emit.test.ts).

const PLAIN = /^[A-Za-z_][A-Za-z0-9_./@-]*(?: [A-Za-z0-9_./@()-]+)*$/
const RESERVED = /^(?:y|n|yes|no|on|off|true|false|null|nan|inf)$/i

function scalarText(value: string): string {
  return PLAIN.test(value) && !RESERVED.test(value) ? value : JSON.stringify(value)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string') return scalarText(value)
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'bigint') return value.toString()
  return JSON.stringify(String(value))
}

function isEmptyCollection(value: unknown): string | undefined {
  if (Array.isArray(value) && value.length === 0) return '[]'
  if (isObject(value) && Object.keys(value).length === 0) return '{}'
  return undefined
}

function emitMap(map: Record<string, unknown>, indent: string, out: string[], firstPrefix?: string): void {
  let first = true
  for (const key of Object.keys(map)) {
    const value = map[key]
    if (value === undefined) continue
    const lead = first && firstPrefix !== undefined ? firstPrefix : indent
    first = false
    const k = scalarText(key)
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
