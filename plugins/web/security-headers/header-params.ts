// Splitting of the `name[=value]; name[=value]` header syntax (HSTS, Set-Cookie
// attributes) with quoted-string values, as RFC 9110 §5.6.4 writes them.

export interface HeaderParam {
  name: string
  /** Unquoted; null when the parameter has no "=". */
  value: string | null
}

/** Splits on `sep` outside double quotes. */
export function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = []
  let current = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '\\' && quoted && i + 1 < text.length) {
      current += c + text[++i]!
      continue
    }
    if (c === '"') quoted = !quoted
    if (c === sep && !quoted) {
      parts.push(current)
      current = ''
      continue
    }
    current += c
  }
  parts.push(current)
  return parts
}

export function unquote(value: string): string {
  const v = value.trim()
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\(.)/g, '$1')
  return v
}

/** `a=1; b; c="x"` -> [{a,1},{b,null},{c,x}]; empty parts are skipped. */
export function parseParams(text: string): HeaderParam[] {
  const out: HeaderParam[] = []
  for (const part of splitOutsideQuotes(text, ';')) {
    const trimmed = part.trim()
    if (trimmed === '') continue
    const eq = trimmed.indexOf('=')
    if (eq < 0) out.push({ name: trimmed.toLowerCase(), value: null })
    else out.push({ name: trimmed.slice(0, eq).trim().toLowerCase(), value: unquote(trimmed.slice(eq + 1)) })
  }
  return out
}
