import { parseTagList, tagValue } from '../tag-list.ts'
import type { DkimKeyInfo } from './dkim-key.ts'
import { readDkimKey } from './dkim-key.ts'

// A DKIM key record (RFC 6376 §3.6.1): v (must be first, "DKIM1", optional), h
// (acceptable hashes), k (key type, default rsa), n (notes), p (the key; empty =
// revoked), s (service types), t (flags: y testing, s strict identity).

export interface DkimRecord {
  version: string | null
  key_type: string
  hash_algorithms: string[] | null
  service_types: string[]
  flags: string[]
  notes: string | null
  /** p= as published (whitespace removed); '' for a revoked key. */
  public_key: string | null
  revoked: boolean
  testing: boolean
  key: DkimKeyInfo | null
  problems: string[]
  unknown_tags: string[]
}

const KNOWN = new Set(['v', 'h', 'k', 'n', 'p', 's', 't', 'g'])

/** A TXT record that is plausibly a DKIM key (has p=, or v=DKIM1). */
export function looksLikeDkim(text: string): boolean {
  return /(?:^|;)\s*p\s*=/.test(text) || /^\s*v\s*=\s*DKIM1/i.test(text)
}

export function parseDkimRecord(text: string): DkimRecord {
  const list = parseTagList(text)
  const problems: string[] = []
  for (const m of list.malformed) problems.push(`"${m}" is not tag=value`)
  for (const d of list.duplicates) problems.push(`tag ${d}= appears more than once (verifiers reject the key, RFC 6376 §3.2)`)
  const version = tagValue(list, 'v') ?? null
  if (version !== null) {
    if (list.tags[0]?.key !== 'v') problems.push('v= must be the first tag')
    if (version !== 'DKIM1') problems.push(`v=${version}: the only version is DKIM1; verifiers ignore this key`)
  }
  const keyType = (tagValue(list, 'k') ?? 'rsa').toLowerCase()
  if (keyType !== 'rsa' && keyType !== 'ed25519') problems.push(`k=${keyType} is not a key type verifiers know (rsa, ed25519)`)
  const h = tagValue(list, 'h')
  const hashes = h === undefined ? null : h.split(':').map((s) => s.trim().toLowerCase()).filter(Boolean)
  const services = (tagValue(list, 's') ?? '*').split(':').map((s) => s.trim().toLowerCase())
  const flags = (tagValue(list, 't') ?? '').split(':').map((s) => s.trim().toLowerCase()).filter(Boolean)
  const p = tagValue(list, 'p')
  const publicKey = p === undefined ? null : p.replace(/\s+/g, '')
  if (publicKey === null) problems.push('the required p= tag is missing')
  const revoked = publicKey === ''
  const key = publicKey ? readDkimKey(keyType, publicKey) : null
  if (key?.error) problems.push(key.error)
  else if (key?.type && key.type !== keyType) problems.push(`k=${keyType} but the key is ${key.type}`)
  if (!services.includes('*') && !services.includes('email')) problems.push(`s=${services.join(':')}: the key is not for email`)
  return {
    version,
    key_type: keyType,
    hash_algorithms: hashes,
    service_types: services,
    flags,
    notes: tagValue(list, 'n') ?? null,
    public_key: publicKey,
    revoked,
    testing: flags.includes('y'),
    key,
    problems,
    unknown_tags: list.tags.filter((t) => !KNOWN.has(t.key)).map((t) => t.name),
  }
}
