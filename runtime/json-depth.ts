// How deeply a JSON text nests, measured on the text before anything parses or
// walks it. JSON.parse itself copes with any depth, but what comes after does not:
// String() of a nested array, JSON.stringify, validators and emitters recurse, and
// 5,000 levels of `[` overflow the stack (a 500 for four bytes per level). One
// linear pass with no recursion and no allocation bounds it first.

const QUOTE = 0x22 // "
const BACKSLASH = 0x5c // \
const OPEN_ARRAY = 0x5b // [
const OPEN_OBJECT = 0x7b // {
const CLOSE_ARRAY = 0x5d // ]
const CLOSE_OBJECT = 0x7d // }

/**
 * True when the text opens more than `max` arrays/objects inside one another
 * (brackets inside strings do not count). Exact for valid JSON; for anything
 * else the answer only has to be harmless, as JSON.parse rejects that text.
 * Stops at the first level past `max`, so a million-deep body costs no more
 * than a `max`-deep one.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0
  const length = text.length
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      // Jump to the closing quote: one not preceded by an odd run of backslashes.
      let end = i
      for (;;) {
        end = text.indexOf('"', end + 1)
        if (end < 0) return false // unterminated string: not JSON
        let slashes = 0
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++
        if (slashes % 2 === 0) break
      }
      i = end
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--
    }
  }
  return false
}
