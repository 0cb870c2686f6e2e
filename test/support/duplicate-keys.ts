/**
 * The keys that occur twice in one object of a JSON text, as paths ("a.b" for key
 * b twice inside a's object). JSON.parse keeps the last of two equal keys without
 * a word, so a log line with a key twice parses fine and loses a value; this
 * walks the text itself instead.
 *
 * Keys are compared as JSON.parse decodes them ("a" and "\u0061" are one key).
 * The text must be valid JSON: callers JSON.parse it first; this throws on
 * anything it does not expect rather than guess.
 */
export function duplicateKeys(text: string): string[] {
  const found: string[] = []
  let i = 0

  const space = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  }
  const fail = (what: string): never => {
    throw new SyntaxError(`duplicateKeys: ${what} at ${i}`)
  }

  /** A string token from its opening quote; returns the decoded text. */
  const string = (): string => {
    const start = i
    i++ // the opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
    if (i >= text.length) fail('unterminated string')
    i++ // the closing quote
    return JSON.parse(text.slice(start, i)) as string
  }

  const value = (path: string): void => {
    space()
    const c = text[i]
    if (c === '{') {
      i++
      const seen = new Set<string>()
      space()
      if (text[i] === '}') {
        i++
        return
      }
      for (;;) {
        space()
        if (text[i] !== '"') fail('expected a key')
        const key = string()
        const keyPath = path === '' ? key : `${path}.${key}`
        if (seen.has(key)) found.push(keyPath)
        seen.add(key)
        space()
        if (text[i] !== ':') fail('expected ":"')
        i++
        value(keyPath)
        space()
        if (text[i] === ',') i++
        else if (text[i] === '}') {
          i++
          return
        } else fail('expected "," or "}"')
      }
    }
    if (c === '[') {
      i++
      space()
      if (text[i] === ']') {
        i++
        return
      }
      for (let index = 0; ; index++) {
        value(`${path}[${index}]`)
        space()
        if (text[i] === ',') i++
        else if (text[i] === ']') {
          i++
          return
        } else fail('expected "," or "]"')
      }
    }
    if (c === '"') {
      string()
      return
    }
    // A number, true, false or null: everything up to the next delimiter.
    const start = i
    while (i < text.length && !',]} \t\n\r'.includes(text[i]!)) i++
    if (i === start) fail('expected a value')
  }

  value('')
  space()
  if (i !== text.length) fail('text after the value')
  return found
}
