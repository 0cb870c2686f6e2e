// DS digests (RFC 4034 §5.1.4, RFC 4509, RFC 6605 §3): the hash of the owner name in
// canonical form followed by the DNSKEY RDATA. A DS matches a key when key tag,
// algorithm and digest all agree (RFC 4035 §5.2).

import { createHash } from 'node:crypto'
import type { DnskeyData, DsData } from '../../runtime/net/dns/dns-records.ts'
import { digestHash } from './algorithms.ts'
import type { Name } from './names.ts'

/** DNSKEY RDATA from its fields (the same bytes the wire carried, or an anchor file's). */
export function dnskeyRdata(key: Pick<DnskeyData, 'flags' | 'protocol' | 'algorithm' | 'key'>): Buffer {
  const head = Buffer.alloc(4)
  head.writeUInt16BE(key.flags, 0)
  head[2] = key.protocol
  head[3] = key.algorithm
  return Buffer.concat([head, Buffer.from(key.key, 'base64')])
}

/** The digest a DS of this type would carry for the key; undefined for digest types not implemented. */
export function dsDigest(owner: Name, key: Pick<DnskeyData, 'flags' | 'protocol' | 'algorithm' | 'key'>, digestType: number): string | undefined {
  const hash = digestHash(digestType)
  if (!hash) return undefined
  return createHash(hash).update(owner.wire).update(dnskeyRdata(key)).digest('hex')
}

// DS and DNSKEY records of cached answers (and anchors) are the same objects from one
// validation to the next: each pair is hashed once.
const matched = new WeakMap<DsData, WeakMap<DnskeyData, { owner: string; ok: boolean }>>()

export function dsMatchesKey(owner: Name, ds: DsData, key: DnskeyData): boolean {
  if (ds.keyTag !== key.keyTag || ds.algorithm !== key.algorithm) return false
  let byKey = matched.get(ds)
  const known = byKey?.get(key)
  if (known && known.owner === owner.text) return known.ok
  const ok = dsDigest(owner, key, ds.digestType) === ds.digest.toLowerCase()
  if (!byKey) {
    byKey = new WeakMap()
    matched.set(ds, byKey)
  }
  byKey.set(key, { owner: owner.text, ok })
  return ok
}
