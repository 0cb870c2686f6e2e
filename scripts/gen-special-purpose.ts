/**
 * Regenerates the IANA data modules of runtime/ip/ from the registry XML:
 *
 *   special-purpose-data.ts  <- iana-ipv4-special-registry.xml, iana-ipv6-special-registry.xml
 *   address-space-data.ts    <- ipv4-address-space.xml, ipv6-address-space.xml
 *
 * Usage:
 *   npx tsx scripts/gen-special-purpose.ts [--from DIR] [--check]
 *
 * DIR defaults to test/fixtures/iana (copies of the files published under
 * https://www.iana.org/assignments/). --check writes nothing and exits 1 when the
 * committed modules differ from what the XML gives, so CI can catch a stale copy.
 * The output is deterministic: same XML in, same bytes out.
 */
import { XMLParser } from 'fast-xml-parser'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { formatCidr } from '../runtime/ip/format.ts'
import type { IpVersion } from '../runtime/ip/ip-types.ts'
import { parseCidr } from '../runtime/ip/parse-cidr.ts'
import type {
  AddressSpaceRegistry,
  Ipv4AddressSpaceEntry,
  Ipv6AddressSpaceEntry,
  RegistryFlag,
  SpecialPurposeClass,
  SpecialPurposeEntry,
  SpecialPurposeRegistry,
} from '../runtime/ip/special-purpose-types.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const OUT_DIR = join(ROOT, 'runtime/ip')
const IANA = 'https://www.iana.org/assignments'

/**
 * Short class per block. Keyed by canonical prefix rather than by name because
 * IANA edits names ("IPv4-IPv6 Translat.") more often than blocks.
 */
const CLASSES: Record<string, SpecialPurposeClass> = {
  '0.0.0.0/8': 'this-network',
  '0.0.0.0/32': 'unspecified',
  '10.0.0.0/8': 'private',
  '100.64.0.0/10': 'cgnat',
  '127.0.0.0/8': 'loopback',
  '169.254.0.0/16': 'link-local',
  '172.16.0.0/12': 'private',
  '192.0.0.0/24': 'ietf-protocol',
  '192.0.0.0/29': 'ipv4-service-continuity',
  '192.0.0.8/32': 'dummy',
  '192.0.0.9/32': 'anycast',
  '192.0.0.10/32': 'anycast',
  '192.0.0.170/32': 'nat64-discovery',
  '192.0.2.0/24': 'documentation',
  '192.31.196.0/24': 'as112',
  '192.52.193.0/24': 'amt',
  '192.88.99.0/24': 'deprecated',
  '192.168.0.0/16': 'private',
  '192.175.48.0/24': 'as112',
  '198.18.0.0/15': 'benchmarking',
  '198.51.100.0/24': 'documentation',
  '203.0.113.0/24': 'documentation',
  '240.0.0.0/4': 'reserved',
  '255.255.255.255/32': 'broadcast',
  '::1/128': 'loopback',
  '::/128': 'unspecified',
  '::ffff:0:0/96': 'ipv4-mapped',
  '64:ff9b::/96': 'nat64',
  '64:ff9b:1::/48': 'nat64',
  '100::/64': 'discard',
  '2001::/23': 'ietf-protocol',
  '2001::/32': 'teredo',
  '2001:1::1/128': 'anycast',
  '2001:1::2/128': 'anycast',
  '2001:2::/48': 'benchmarking',
  '2001:3::/32': 'amt',
  '2001:4:112::/48': 'as112',
  '2001:10::/28': 'deprecated',
  '2001:20::/28': 'orchid',
  '2001:30::/28': 'drone-remote-id',
  '2001:db8::/32': 'documentation',
  '2002::/16': '6to4',
  '2620:4f:8000::/48': 'as112',
  'fc00::/7': 'unique-local',
  'fe80::/10': 'link-local',
}

// ---- a typed view of fast-xml-parser's preserveOrder tree --------------------

/** preserveOrder nodes: `{ tag: children, ':@'?: attributes }` or `{ '#text': text }`. */
type XmlNode = Record<string, unknown>

function tagOf(node: XmlNode): string | undefined {
  return Object.keys(node).find((k) => k !== ':@')
}

function kids(node: XmlNode): XmlNode[] {
  const tag = tagOf(node)
  const value = tag === undefined ? undefined : node[tag]
  return Array.isArray(value) ? (value as XmlNode[]) : []
}

function attr(node: XmlNode, name: string): string | undefined {
  const attrs = node[':@'] as Record<string, string> | undefined
  return attrs?.[name]
}

function all(nodes: XmlNode[], tag: string): XmlNode[] {
  return nodes.filter((n) => tagOf(n) === tag)
}

function one(nodes: XmlNode[], tag: string): XmlNode | undefined {
  return nodes.find((n) => tagOf(n) === tag)
}

function xrefText(node: XmlNode): string {
  const type = attr(node, 'type') ?? ''
  const data = attr(node, 'data') ?? ''
  if (type === 'rfc') return data.replace(/^rfc/i, 'RFC ')
  if (type === 'rfc-errata') return `RFC Errata ${data}`
  if (type === 'registry') return `the ${data} registry`
  if (type === 'note') return ''
  return data
}

/** Text content with xrefs written out and whitespace collapsed. */
function text(nodes: XmlNode[]): string {
  let out = ''
  let afterXref = false
  for (const n of nodes) {
    const t = n['#text']
    if (typeof t === 'string') {
      out += t
      if (t.trim() !== '') afterXref = false
    } else if (tagOf(n) === 'xref') {
      const ref = xrefText(n)
      if (ref === '') continue
      // Adjacent xrefs ("<xref rfc8880/><xref rfc7050/>") would otherwise run together.
      if (afterXref) out = `${out.trimEnd()}, `
      out += ref
      afterXref = true
    } else {
      out += text(kids(n))
      afterXref = false
    }
  }
  return out.replace(/\s+/g, ' ').trim()
}

function childText(record: XmlNode[], tag: string): string {
  const node = one(record, tag)
  return node ? text(kids(node)) : ''
}

function xrefs(nodes: XmlNode[], type: string): string[] {
  const found: string[] = []
  for (const n of nodes) {
    if (tagOf(n) === 'xref' && attr(n, 'type') === type) found.push(attr(n, 'data') ?? '')
    else found.push(...xrefs(kids(n), type))
  }
  return found
}

function load(dir: string, file: string): XmlNode[] {
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    trimValues: false,
    parseTagValue: false,
  })
  const doc = parser.parse(readFileSync(join(dir, file), 'utf8')) as XmlNode[]
  const registry = one(doc, 'registry')
  if (!registry) throw new Error(`${file}: no <registry> root`)
  return kids(registry)
}

function canonical(prefix: string, file: string): { cidr: string; version: IpVersion } {
  const parsed = parseCidr(prefix)
  if (!parsed.ok) throw new Error(`${file}: "${prefix}" is not a CIDR block: ${parsed.error.reason}`)
  if (parsed.value.hostBitsSet) throw new Error(`${file}: "${prefix}" has host bits set`)
  return { cidr: formatCidr(parsed.value), version: parsed.value.version }
}

// ---- special-purpose registries ----------------------------------------------

const FLAG_COLUMNS = [
  ['source', 'source', 'source'],
  ['destination', 'destination', 'destination'],
  ['forwardable', 'forwardable', 'forwardable'],
  ['global', 'globallyReachable', 'globally reachable'],
  ['reserved', 'reservedByProtocol', 'reserved-by-protocol'],
] as const

function specialRegistry(dir: string, file: string, version: IpVersion): SpecialPurposeRegistry {
  const top = load(dir, file)
  const id = attrOfRoot(dir, file)
  const inner = one(top, 'registry')
  if (!inner) throw new Error(`${file}: no inner <registry> of records`)
  const footnotes = new Map<string, string>()
  for (const f of all(top, 'footnote')) footnotes.set(attr(f, 'anchor') ?? '', text(kids(f)))

  const entries: SpecialPurposeEntry[] = []
  for (const recordNode of all(kids(inner), 'record')) {
    const record = kids(recordNode)
    const noteFields = new Map<string, string[]>()
    const refer = (column: string, nodes: XmlNode[]): void => {
      for (const anchor of xrefs(nodes, 'note')) noteFields.set(anchor, [...(noteFields.get(anchor) ?? []), column])
    }
    const addressNode = one(record, 'address')
    const addressNodes = addressNode ? kids(addressNode) : []
    refer('address block', addressNodes)
    const blocks = text(addressNodes)
      .split(',')
      .map((b) => b.trim())
      .filter((b) => b !== '')
      .map((b) => canonical(b, file))
    if (blocks.length === 0) throw new Error(`${file}: a record has no address block`)
    for (const b of blocks) {
      if (b.version !== version) throw new Error(`${file}: ${b.cidr} is not IPv${version}`)
    }

    const flags: Partial<Record<(typeof FLAG_COLUMNS)[number][1], RegistryFlag>> = {}
    const extraNotes: string[] = []
    for (const [tag, key, label] of FLAG_COLUMNS) {
      const node = one(record, tag)
      const nodes = node ? kids(node) : []
      refer(label, nodes)
      const raw = text(nodes).toLowerCase()
      if (raw === 'true') flags[key] = true
      else if (raw === 'false') flags[key] = false
      else {
        flags[key] = null
        extraNotes.push(raw === '' ? `${label}: left empty in the registry` : `${label}: "${raw.toUpperCase()}" in the registry`)
      }
    }

    const first = blocks[0]?.cidr ?? ''
    const name = childText(record, 'name')
    const cls = CLASSES[first]
    if (cls === undefined) {
      console.warn(`warning: ${file}: no class for ${first} "${name}"; using 'special' (add it to CLASSES)`)
    }
    const specNode = one(record, 'spec')
    const specNodes = specNode ? kids(specNode) : []
    const notes = [...extraNotes]
    for (const [anchor, columns] of noteFields) {
      const note = footnotes.get(anchor)
      if (note === undefined) throw new Error(`${file}: ${first} points to missing footnote ${anchor}`)
      notes.push(`${columns.join(', ')}: ${note}`)
    }
    const terminated = childText(record, 'termination')
    entries.push({
      version,
      addressBlocks: blocks.map((b) => b.cidr),
      name: name.replace(/^"(.*)"$/, '$1'),
      class: cls ?? 'special',
      rfcs: [...new Set(xrefs(specNodes, 'rfc').map((r) => r.replace(/^rfc/i, 'RFC ')))],
      spec: text(specNodes),
      allocated: childText(record, 'allocation'),
      terminated: terminated === '' ? null : terminated,
      source: flags.source ?? null,
      destination: flags.destination ?? null,
      forwardable: flags.forwardable ?? null,
      globallyReachable: flags.globallyReachable ?? null,
      reservedByProtocol: flags.reservedByProtocol ?? null,
      notes,
    })
  }
  return {
    version,
    id,
    title: childText(top, 'title'),
    source: `${IANA}/${id}/${id}.xml`,
    updated: childText(top, 'updated'),
    entries,
  }
}

function attrOfRoot(dir: string, file: string): string {
  const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '' })
  const doc = parser.parse(readFileSync(join(dir, file), 'utf8')) as XmlNode[]
  const registry = one(doc, 'registry')
  const id = registry ? attr(registry, 'id') : undefined
  if (!id) throw new Error(`${file}: the root <registry> has no id`)
  return id
}

// ---- address-space registries ------------------------------------------------

function ipv4AddressSpace(dir: string, file: string): AddressSpaceRegistry<Ipv4AddressSpaceEntry> {
  const top = load(dir, file)
  const id = attrOfRoot(dir, file)
  const entries: Ipv4AddressSpaceEntry[] = []
  for (const recordNode of all(top, 'record')) {
    const record = kids(recordNode)
    const raw = childText(record, 'prefix')
    const m = /^(\d{1,3})\/8$/.exec(raw)
    if (!m) throw new Error(`${file}: unexpected prefix "${raw}"`)
    const status = childText(record, 'status').toUpperCase()
    if (status !== 'ALLOCATED' && status !== 'LEGACY' && status !== 'RESERVED' && status !== 'UNALLOCATED') {
      throw new Error(`${file}: ${raw} has unknown status "${status}"`)
    }
    const whois = childText(record, 'whois')
    const rdapNode = one(record, 'rdap')
    entries.push({
      prefix: `${Number(m[1])}.0.0.0/8`,
      designation: childText(record, 'designation'),
      status,
      date: childText(record, 'date'),
      whois: whois === '' ? null : whois,
      rdap: rdapNode ? all(kids(rdapNode), 'server').map((s) => text(kids(s))) : [],
    })
  }
  if (entries.length !== 256) throw new Error(`${file}: expected 256 /8 records, found ${entries.length}`)
  return { version: 4, id, title: childText(top, 'title'), source: `${IANA}/${id}/${id}.xml`, updated: childText(top, 'updated'), entries }
}

function ipv6AddressSpace(dir: string, file: string): AddressSpaceRegistry<Ipv6AddressSpaceEntry> {
  const top = load(dir, file)
  const id = attrOfRoot(dir, file)
  const inner = one(top, 'registry')
  if (!inner) throw new Error(`${file}: no inner <registry> of records`)
  const entries: Ipv6AddressSpaceEntry[] = []
  for (const recordNode of all(kids(inner), 'record')) {
    const record = kids(recordNode)
    entries.push({
      prefix: canonical(childText(record, 'prefix'), file).cidr,
      description: childText(record, 'description'),
      rfcs: [
        ...new Set(
          record
            .filter((n) => tagOf(n) === 'xref' && attr(n, 'type') === 'rfc')
            .map((n) => (attr(n, 'data') ?? '').replace(/^rfc/i, 'RFC ')),
        ),
      ],
    })
  }
  return { version: 6, id, title: childText(top, 'title'), source: `${IANA}/${id}/${id}.xml`, updated: childText(top, 'updated'), entries }
}

// ---- output ------------------------------------------------------------------

const HEADER = '// Generated by scripts/gen-special-purpose.ts from the IANA registry XML. Do not edit;\n// rerun `npx tsx scripts/gen-special-purpose.ts` after updating the XML copies.\n'

/** Pretty at the top, one line per entry: readable, and a registry change is a one-line diff. */
function serialize(registry: { entries: readonly unknown[] }): string {
  const head = JSON.stringify({ ...registry, entries: [] }, null, 2).replace(/\n}$/, '')
  const rows = registry.entries.map((e) => `    ${JSON.stringify(e)},`).join('\n')
  return head.replace(/"entries": \[\]$/, `"entries": [\n${rows}\n  ]`) + '\n}'
}

function specialModule(v4: SpecialPurposeRegistry, v6: SpecialPurposeRegistry): string {
  return (
    HEADER +
    "import type { SpecialPurposeRegistry } from './special-purpose-types.ts'\n\n" +
    `export const IPV4_SPECIAL_PURPOSE: SpecialPurposeRegistry = ${serialize(v4)}\n\n` +
    `export const IPV6_SPECIAL_PURPOSE: SpecialPurposeRegistry = ${serialize(v6)}\n`
  )
}

function spaceModule(
  v4: AddressSpaceRegistry<Ipv4AddressSpaceEntry>,
  v6: AddressSpaceRegistry<Ipv6AddressSpaceEntry>,
): string {
  return (
    HEADER +
    "import type { AddressSpaceRegistry, Ipv4AddressSpaceEntry, Ipv6AddressSpaceEntry } from './special-purpose-types.ts'\n\n" +
    `export const IPV4_ADDRESS_SPACE: AddressSpaceRegistry<Ipv4AddressSpaceEntry> = ${serialize(v4)}\n\n` +
    `export const IPV6_ADDRESS_SPACE: AddressSpaceRegistry<Ipv6AddressSpaceEntry> = ${serialize(v6)}\n`
  )
}

function main(argv: string[]): number {
  const fromAt = argv.indexOf('--from')
  const dir = fromAt >= 0 && argv[fromAt + 1] ? resolve(argv[fromAt + 1] as string) : resolve(ROOT, 'test/fixtures/iana')
  const check = argv.includes('--check')
  const outputs: [string, string][] = [
    [
      'special-purpose-data.ts',
      specialModule(
        specialRegistry(dir, 'iana-ipv4-special-registry.xml', 4),
        specialRegistry(dir, 'iana-ipv6-special-registry.xml', 6),
      ),
    ],
    [
      'address-space-data.ts',
      spaceModule(ipv4AddressSpace(dir, 'ipv4-address-space.xml'), ipv6AddressSpace(dir, 'ipv6-address-space.xml')),
    ],
  ]
  let stale = 0
  for (const [name, content] of outputs) {
    const path = join(OUT_DIR, name)
    if (check) {
      let current = ''
      try {
        current = readFileSync(path, 'utf8')
      } catch {
        // a missing file is simply stale
      }
      if (current !== content) {
        console.error(`${path} is stale; run npx tsx scripts/gen-special-purpose.ts`)
        stale++
      }
    } else {
      writeFileSync(path, content)
      console.log(`wrote ${path}`)
    }
  }
  return stale === 0 ? 0 : 1
}

process.exitCode = main(process.argv.slice(2))
