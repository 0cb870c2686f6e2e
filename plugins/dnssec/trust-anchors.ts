// Trust anchors (RFC 4035 §4.4): DS or DNSKEY records in master-file presentation
// form (`. IN DS 20326 8 2 E06D…`, `. 172800 IN DNSKEY 257 3 8 AwEA…`), one record per
// entry; parentheses, comments, TTL and class are allowed, anything else is an error
// that stops start-up. Anchors are usually for the root but any name works: the
// deepest anchor above a name is where its chain starts.

import { readFileSync } from 'node:fs'
import type { DnskeyData, DsData } from '../../runtime/net/dns/dns-records.ts'
import { keyTag } from '../../runtime/net/dns/dns-key-tag.ts'
import { dnskeyRdata } from './ds-digest.ts'
import { nameOf, type Name } from './names.ts'
import { ROOT_ANCHORS, ROOT_ANCHORS_SOURCE } from './root-anchors-data.ts'

export type TrustAnchor = { owner: Name; type: 'DS'; ds: DsData } | { owner: Name; type: 'DNSKEY'; dnskey: DnskeyData }

export interface TrustAnchors {
  anchors: TrustAnchor[]
  /** Where they came from: the built-in IANA set or the file's path. */
  source: string
}

export class TrustAnchorError extends Error {
  override readonly name = 'TrustAnchorError'
}

/** Entries of a master file: comments dropped, parentheses joined. */
function entries(text: string): Array<{ line: number; tokens: string[] }> {
  const out: Array<{ line: number; tokens: string[] }> = []
  let depth = 0
  let current: { line: number; tokens: string[] } | null = null
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/;.*$/, '')
    for (const token of line.match(/[()]|[^\s()]+/g) ?? []) {
      if (token === '(') depth++
      else if (token === ')') depth = Math.max(0, depth - 1)
      else {
        current ??= { line: index + 1, tokens: [] }
        current.tokens.push(token)
      }
    }
    if (depth === 0 && current) {
      out.push(current)
      current = null
    }
  })
  if (current) out.push(current)
  return out
}

function int(token: string | undefined, max: number, what: string, line: number): number {
  if (token === undefined || !/^\d+$/.test(token) || Number(token) > max) throw new TrustAnchorError(`line ${line}: bad ${what} "${token ?? ''}"`)
  return Number(token)
}

export function parseTrustAnchors(text: string): TrustAnchor[] {
  const anchors: TrustAnchor[] = []
  for (const { line, tokens } of entries(text)) {
    if (tokens[0]?.startsWith('$')) continue
    const [ownerText, ...rest] = tokens
    if (!ownerText || !ownerText.endsWith('.')) throw new TrustAnchorError(`line ${line}: the owner must be an absolute name ending in "." (got "${ownerText ?? ''}")`)
    while (rest.length > 0 && (/^\d+$/.test(rest[0] as string) || /^IN$/i.test(rest[0] as string))) rest.shift()
    const type = rest.shift()?.toUpperCase()
    const owner = nameOf(ownerText)
    if (type === 'DS') {
      const [tag, algorithm, digestType, ...digest] = rest
      const hex = digest.join('')
      if (!/^([0-9a-f]{2})+$/i.test(hex)) throw new TrustAnchorError(`line ${line}: bad DS digest`)
      anchors.push({
        owner,
        type: 'DS',
        ds: { keyTag: int(tag, 0xffff, 'key tag', line), algorithm: int(algorithm, 255, 'algorithm', line), digestType: int(digestType, 255, 'digest type', line), digest: hex.toLowerCase() },
      })
    } else if (type === 'DNSKEY') {
      const [flags, protocol, algorithm, ...key] = rest
      const keyText = key.join('')
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(keyText)) throw new TrustAnchorError(`line ${line}: bad DNSKEY public key`)
      const fields = { flags: int(flags, 0xffff, 'flags', line), protocol: int(protocol, 255, 'protocol', line), algorithm: int(algorithm, 255, 'algorithm', line), key: keyText }
      anchors.push({
        owner,
        type: 'DNSKEY',
        dnskey: {
          ...fields,
          keyTag: keyTag(dnskeyRdata(fields)),
          zoneKey: (fields.flags & 0x0100) !== 0,
          secureEntryPoint: (fields.flags & 0x0001) !== 0,
          revoked: (fields.flags & 0x0080) !== 0,
        },
      })
    } else throw new TrustAnchorError(`line ${line}: expected a DS or DNSKEY record, got ${type ?? 'nothing'}`)
  }
  return anchors
}

/** The anchors from INFRALENS_TRUST_ANCHORS, or the built-in IANA root KSKs. */
export function loadTrustAnchors(file: string | undefined): TrustAnchors {
  if (file === undefined) return { anchors: parseTrustAnchors(ROOT_ANCHORS), source: ROOT_ANCHORS_SOURCE }
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new TrustAnchorError(`INFRALENS_TRUST_ANCHORS: cannot read ${file}: ${(error as Error).message}`)
  }
  let anchors: TrustAnchor[]
  try {
    anchors = parseTrustAnchors(text)
  } catch (error) {
    throw new TrustAnchorError(`INFRALENS_TRUST_ANCHORS (${file}): ${(error as Error).message}`)
  }
  if (anchors.length === 0) throw new TrustAnchorError(`INFRALENS_TRUST_ANCHORS (${file}) holds no DS or DNSKEY record`)
  return { anchors, source: file }
}
