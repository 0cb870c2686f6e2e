import { xmlName, xmlText } from './xml-names.ts'

// XML for JSON-shaped data: objects become elements, arrays repeated <item>,
// scalars text. Hand-written because fast-xml-parser's builder (plus the tree it
// needs) takes ~2.5 ms for a 200-record list (bench/RESULTS.md); the output is
// parsed back with fast-xml-parser and with expat, a strict parser, in the tests
// (test/gateway/emitters.test.ts, xml-strict.test.ts).

// A raw CR is read back as LF (XML end-of-line handling) and, in an attribute,
// tab/LF/CR as spaces (attribute-value normalization): written as references
// they are read back as themselves.
const SPECIAL = /[&<>"\r]/
const ATTRIBUTE_SPECIAL = /[&<>"\t\n\r]/g
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' }

function escapeText(text: string): string {
  // Most values (names, numbers, addresses) need nothing: test before replacing.
  const clean = xmlText(text)
  return SPECIAL.test(clean) ? clean.replace(/[&<>"\r]/g, (c) => ENTITIES[c]!) : clean
}

// Only renamed keys get an attribute: rare, so no fast path.
function escapeAttribute(text: string): string {
  return xmlText(text).replace(ATTRIBUTE_SPECIAL, (c) => ENTITIES[c]!)
}

// Keys repeat across every record of a list; their XML names are computed once.
const names = new Map<string, string>()
function nameFor(key: string): string {
  let name = names.get(key)
  if (name === undefined) {
    name = xmlName(key)
    if (names.size < 10_000) names.set(key, name)
  }
  return name
}

function element(name: string, value: unknown, attr: string, out: string[]): void {
  if (value === null || value === undefined) {
    out.push(`<${name}${attr}/>`)
    return
  }
  if (typeof value !== 'object') {
    out.push(`<${name}${attr}>${escapeText(String(value))}</${name}>`)
    return
  }
  out.push(`<${name}${attr}>`)
  if (Array.isArray(value)) {
    for (const item of value) element('item', item, '', out)
  } else {
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key]
      if (v === undefined) continue
      const tag = nameFor(key)
      element(tag, v, tag === key ? '' : ` key="${escapeAttribute(key)}"`, out)
    }
  }
  out.push(`</${name}>`)
}

export function toXml(value: unknown, root = 'response'): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n']
  element(root, value, '', out)
  return out.join('')
}
