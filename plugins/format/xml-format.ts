import { defineFormat } from '../../runtime/define-format.ts'
import { toXml } from './xml-emit.ts'

// The envelope becomes <response>; arrays become repeated <item>; a key that is not
// a valid XML name is renamed and keeps its original in a key="..." attribute.
export const xmlFormat = defineFormat({
  name: 'xml',
  contentType: 'application/xml; charset=utf-8',
  success: (envelope) => toXml(envelope),
  error: (envelope) => toXml(envelope),
  raw: (data) => toXml(data),
})
