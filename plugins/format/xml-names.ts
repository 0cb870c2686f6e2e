import { LETTER, NAME_CHAR } from 'xmlchars/xml/1.0/ed4.js'

// XML element names have rules JSON keys do not: no leading digit, hyphen or dot,
// no spaces or colons (namespaces), nothing starting with "xml".
//
// Which characters a name may hold is the 4th edition's table (XML 1.0 Appendix
// B), not the 5th's wider ranges: expat (under Python, PHP, Ruby, ...) still
// checks the 4th and refuses the whole document for one character outside it,
// e.g. U+FEFF or U+017F; every 4th-edition name is a 5th-edition name too.
// No u flag: a character outside the BMP is two replaced halves, as before.

const INVALID_CHARS = new RegExp(`[^${NAME_CHAR}]|:`, 'g')
const NAME_START = new RegExp(`^[${LETTER}_]`)

/** A valid XML element name for a JSON key (unchanged when it already is one). */
export function xmlName(key: string): string {
  let name = key.replace(INVALID_CHARS, '_')
  if (!NAME_START.test(name) || /^xml/i.test(name)) name = `_${name}`
  return name
}

// Characters XML 1.0 cannot carry at all, even escaped.
const NOT_XML_CHAR = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

const HAS_NOT_XML_CHAR = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u

export function xmlText(text: string): string {
  return HAS_NOT_XML_CHAR.test(text) ? text.replace(NOT_XML_CHAR, '\uFFFD') : text
}
