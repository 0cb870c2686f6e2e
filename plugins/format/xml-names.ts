// XML element names have rules JSON keys do not: no leading digit, hyphen or dot,
// no spaces or colons (namespaces), nothing starting with "xml".

const INVALID_CHARS = /[^A-Za-z0-9_.\-\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD]/g

/** A valid XML element name for a JSON key (unchanged when it already is one). */
export function xmlName(key: string): string {
  let name = key.replace(INVALID_CHARS, '_')
  if (name === '' || /^[0-9.\-]/.test(name) || /^xml/i.test(name)) name = `_${name}`
  return name
}

// Characters XML 1.0 cannot carry at all, even escaped.
const NOT_XML_CHAR = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

const HAS_NOT_XML_CHAR = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u

export function xmlText(text: string): string {
  return HAS_NOT_XML_CHAR.test(text) ? text.replace(NOT_XML_CHAR, '\uFFFD') : text
}
