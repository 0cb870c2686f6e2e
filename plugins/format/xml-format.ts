import { XMLBuilder } from 'fast-xml-parser'
import { defineFormat } from '../../runtime/define-format.ts'
import { xmlName, xmlText } from './xml-names.ts'

// The envelope becomes <response>; arrays become repeated <item>; a key that is not
// a valid XML name is renamed and keeps its original in a key="..." attribute.

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  suppressEmptyNode: false,
  processEntities: true,
})

type Node = string | { [key: string]: Node | Node[] } | null

function toNode(value: unknown): Node {
  if (value === null || value === undefined) return null
  if (Array.isArray(value)) return value.length === 0 ? '' : { item: value.map(toNode) }
  if (typeof value === 'object') {
    const out: { [key: string]: Node | Node[] } = {}
    for (const [key, v] of Object.entries(value)) {
      const name = xmlName(key)
      let node = toNode(v)
      if (name !== key) {
        if (node === null || typeof node === 'string') node = { '@_key': key, '#text': node ?? '' }
        else node = { '@_key': key, ...node }
      }
      out[name] = node
    }
    return out
  }
  return xmlText(String(value))
}

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'

function toXml(value: unknown): string {
  return DECLARATION + (builder.build({ response: toNode(value) }) as string)
}

export const xmlFormat = defineFormat({
  name: 'xml',
  contentType: 'application/xml; charset=utf-8',
  success: (envelope) => toXml(envelope),
  error: (envelope) => toXml(envelope),
  raw: (data) => toXml(data),
})
