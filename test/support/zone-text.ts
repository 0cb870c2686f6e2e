// Lexical pieces of the master-file format shared by the zone parser and the RDATA
// encoders: tokens, TTLs, relative names and backslash escapes (RFC 1035 §5.1).

export interface ZoneToken {
  /** The text with quotes removed and backslash escapes left in place. */
  text: string
  quoted: boolean
}

const TTL_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 }

/** A TTL in seconds (plain, or BIND units like 1h30m); undefined if the token is not one. */
export function parseTtl(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text)
  if (!/^(\d+[smhdw])+$/i.test(text)) return undefined
  let total = 0
  for (const [, n, unit] of text.toLowerCase().matchAll(/(\d+)([smhdw])/g)) total += Number(n) * (TTL_UNITS[unit as string] as number)
  return total
}

export function endsWithUnescapedDot(text: string): boolean {
  if (!text.endsWith('.')) return false
  let backslashes = 0
  for (let i = text.length - 2; i >= 0 && text[i] === '\\'; i--) backslashes++
  return backslashes % 2 === 0
}

/** Makes a name from a master file absolute: @ is the origin, names without a final dot are relative. */
export function absoluteName(text: string, origin: string): string {
  if (text === '@') return origin
  if (endsWithUnescapedDot(text)) return text === '.' ? '.' : text.slice(0, -1)
  if (origin === '.') return text
  return `${text}.${origin}`
}

/** \X and \DDD escapes to bytes (RFC 1035 §5.1). */
export function unescapeText(text: string): Buffer {
  const out: number[] = []
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string
    if (ch !== '\\') {
      out.push(...Buffer.from(ch))
      continue
    }
    const digits = /^\d{3}/.exec(text.slice(i + 1, i + 4))
    if (digits) {
      const value = Number(digits[0])
      if (value > 255) throw new Error(`escape \\${digits[0]} is not a byte`)
      out.push(value)
      i += 3
    } else {
      const next = text[i + 1]
      if (next === undefined) throw new Error('dangling backslash')
      out.push(...Buffer.from(next))
      i++
    }
  }
  return Buffer.from(out)
}
