import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { domainToASCII, domainToUnicode } from 'node:url'
import type { z } from 'zod'
import type { TldsData } from '../../registry/data/schemas/data-schemas.ts'
import { GENERIC_RESTRICTED, IDN_CCTLDS, INFRASTRUCTURE, SPECIAL_USE, SPONSORED, TEST_TLDS } from './tld-categories.ts'

type TldRow = z.input<typeof TldsData>['tlds'][number]
type TldType = TldRow['type']

/**
 * tldts exposes lookups (getPublicSuffix, ...) but not the list of suffixes; the
 * Public Suffix List it bundles exists only as this flat trie. Its root's edges
 * are the top-level labels, in Unicode and punycode forms both.
 */
interface PslTrie {
  nodeFlags: Uint8Array
  edgeStart: Uint16Array
  edgeLength: Uint8Array
  edgeChild: Uint16Array
  labelText: string
  rulesRoot: number
}

const require = createRequire(import.meta.url)

export const IANA_TLD_FILE = join(import.meta.dirname, 'files', 'iana-tlds-alpha-by-domain.txt')

/** Top-level labels of the PSL as tldts ships it, ASCII (punycode) form. */
export function pslTopLevel(): Set<string> {
  const trie = require('tldts/dist/cjs/src/data/trie.js') as PslTrie
  const offsets = new Uint32Array(trie.edgeLength.length)
  for (let node = 0, offset = 0; node < trie.nodeFlags.length; node++) {
    for (let edge = trie.edgeStart[node] as number; edge < (trie.edgeStart[node + 1] as number); edge++) {
      offsets[edge] = offset
      offset += trie.edgeLength[edge] as number
    }
  }
  const labels = new Set<string>()
  const root = trie.rulesRoot
  for (let edge = trie.edgeStart[root] as number; edge < (trie.edgeStart[root + 1] as number); edge++) {
    const start = offsets[edge] as number
    const label = trie.labelText.slice(start, start + (trie.edgeLength[edge] as number))
    // Wildcard and exception rules never sit at the top level; skip anything odd.
    const ascii = domainToASCII(label)
    if (ascii !== '' && !ascii.includes('.')) labels.add(ascii)
  }
  return labels
}

/** IANA's list of the TLDs in the root zone, and the version line it opens with. */
export function ianaTlds(): { version: string; tlds: Set<string> } {
  const lines = readFileSync(IANA_TLD_FILE, 'utf8').split('\n')
  const version = /^# Version (\d+)/.exec(lines[0] ?? '')?.[1] ?? 'unknown'
  return { version, tlds: new Set(lines.filter((l) => l !== '' && !l.startsWith('#')).map((l) => l.trim().toLowerCase())) }
}

/** How a TLD's type is decided, in order; returned with the answer so it can be checked. */
export const CLASSIFICATION_RULES = [
  `infrastructure: ${INFRASTRUCTURE.join(', ')}`,
  `generic-restricted: ${GENERIC_RESTRICTED.join(', ')}`,
  `sponsored: ${SPONSORED.join(', ')}`,
  'test: the eleven IDN test TLDs of 2007 (removed from the root zone in 2013)',
  `special-use: ${SPECIAL_USE.join(', ')} (RFC 6761 special-use names the PSL lists; not in the root zone)`,
  'country-code: two ASCII letters, or an IDN ccTLD named with its country code in the PSL\'s ICANN section comments',
  'generic: everything else',
]

function classify(tld: string): { type: TldType; country: string | null } {
  if (INFRASTRUCTURE.includes(tld)) return { type: 'infrastructure', country: null }
  if (GENERIC_RESTRICTED.includes(tld)) return { type: 'generic-restricted', country: null }
  if (SPONSORED.includes(tld)) return { type: 'sponsored', country: null }
  if (TEST_TLDS.includes(tld)) return { type: 'test', country: null }
  if (SPECIAL_USE.includes(tld)) return { type: 'special-use', country: null }
  if (/^[a-z]{2}$/.test(tld)) return { type: 'country-code', country: tld.toUpperCase() }
  const idn = IDN_CCTLDS[tld]
  if (idn !== undefined) return { type: 'country-code', country: idn }
  return { type: 'generic', country: null }
}

export interface TldTable {
  rows: TldRow[]
  ianaVersion: string
  tldtsVersion: string
}

/**
 * Every TLD the PSL (via tldts) or IANA's root-zone list names, plus the test
 * TLDs, each with its IANA root zone database type by the rules above.
 */
export function buildTldTable(): TldTable {
  const psl = pslTopLevel()
  const iana = ianaTlds()
  const all = new Set([...psl, ...iana.tlds, ...TEST_TLDS])
  const rows = [...all].sort().map((tld) => ({
    tld,
    unicode: domainToUnicode(tld) || tld,
    ...classify(tld),
    idn: tld.startsWith('xn--'),
    in_psl: psl.has(tld),
    in_root_zone: iana.tlds.has(tld),
  }))
  const tldtsVersion = (require('tldts/package.json') as { version: string }).version
  return { rows: rows.map(({ tld, unicode, type, idn, country, in_psl, in_root_zone }) => ({ tld, unicode, type, idn, country, in_psl, in_root_zone })), ianaVersion: iana.version, tldtsVersion }
}
