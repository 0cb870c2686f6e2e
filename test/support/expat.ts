import { spawnSync } from 'node:child_process'

// Expat (python3's xml.parsers.expat, the parser under xml.etree and minidom) as
// a strict XML 1.0 oracle: it refuses a document for one character XML forbids,
// and still checks element names against the 4th edition's tables, as many
// deployed readers do. fast-xml-parser is lenient about both.

export interface XmlElement {
  name: string
  attrs: Record<string, string>
  /** Child elements and text, adjacent text joined. */
  children: Array<XmlElement | string>
}

export type ExpatResult = { root: XmlElement } | { error: string }

// Input: a JSON list of base64 documents (the bytes a client receives). Output:
// each document's tree, or expat's error.
const SCRIPT = `
import base64, json, sys
import xml.parsers.expat as expat
def parse(raw):
    stack = [{'children': []}]
    def start(name, attrs):
        stack.append({'name': name, 'attrs': attrs, 'children': []})
    def end(name):
        node = stack.pop()
        stack[-1]['children'].append(node)
    def text(data):
        children = stack[-1]['children']
        if children and isinstance(children[-1], str):
            children[-1] += data
        else:
            children.append(data)
    p = expat.ParserCreate()
    p.buffer_text = True
    p.StartElementHandler, p.EndElementHandler, p.CharacterDataHandler = start, end, text
    try:
        p.Parse(raw, True)
    except expat.ExpatError as e:
        return {'error': str(e)}
    return {'root': stack[0]['children'][0]}
print(json.dumps([parse(base64.b64decode(d)) for d in json.load(sys.stdin)]))
`

/** Parses each document with expat. */
export function expatParseAll(docs: ReadonlyArray<string | Uint8Array>): ExpatResult[] {
  const input = JSON.stringify(docs.map((d) => Buffer.from(d).toString('base64')))
  const run = spawnSync('python3', ['-c', SCRIPT], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 60_000 })
  if (run.error) throw new Error(`python3 is needed for the strict XML tests: apt-get install python3 (${run.error.message})`)
  if (run.status !== 0) throw new Error(`python3 failed (${run.status}): ${run.stderr}`)
  return JSON.parse(run.stdout) as ExpatResult[]
}

/** One document's root element; throws with expat's message when it refuses it. */
export function expatParse(doc: string | Uint8Array): XmlElement {
  const [result] = expatParseAll([doc])
  if (!result || 'error' in result) throw new Error(`expat refused the document: ${result?.error}`)
  return result.root
}
