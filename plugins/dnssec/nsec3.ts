// NSEC3 denial of existence (RFC 5155 §8): hashed owner names (§5), matching and
// covering NSEC3 records, and the closest encloser proof (§8.3) the other proofs are
// built from. A proof whose "next closer" name is covered by an opt-out NSEC3 only
// shows that no signed name exists there — an unsigned delegation may — so answers
// resting on one are not secure (§9.2); callers get `optOut` to decide.

import { createHash } from 'node:crypto'
import { fromBase32Hex } from '../../runtime/net/dns/dns-base32hex.ts'
import type { DnsRecord, Nsec3Record } from '../../runtime/net/dns/dns-records.ts'
import { childOf, labelsOf, ownerOf, parentOf, sameName, type Name } from './names.ts'

/** RFC 9276 §3.2 lets validators give up on costly chains; 150 is BIND 9.18's limit. */
export const MAX_NSEC3_ITERATIONS = 150

export interface Nsec3View {
  record: Nsec3Record
  owner: Name
  /** The zone the record belongs to: its owner minus the hash label. */
  zone: Name
  hash: Buffer
  next: Buffer
  optOut: boolean
  types: ReadonlySet<string>
  iterations: number
  salt: string
}

/** RFC 5155 §5: IH(salt, x, k) — SHA-1 of the canonical name and salt, iterated. */
export function nsec3Hash(name: Name, saltHex: string, iterations: number): Buffer {
  const salt = Buffer.from(saltHex, 'hex')
  let digest = createHash('sha1').update(name.wire).update(salt).digest()
  for (let i = 0; i < iterations; i++) digest = createHash('sha1').update(digest).update(salt).digest()
  return digest
}

// Cached answers come back as the same record objects: each is read once.
const views = new WeakMap<Nsec3Record, Nsec3View | null>()

function viewOf(record: Nsec3Record): Nsec3View | null {
  // §8.2: unknown hash algorithms and flags other than opt-out make the record unusable.
  if (record.data.hashAlgorithm !== 1 || (record.data.flags & 0xfe) !== 0) return null
  const owner = ownerOf(record)
  const label = labelsOf(owner)[0]
  if (!label) return null
  let hash: Buffer
  try {
    hash = fromBase32Hex(label.toString('latin1'))
  } catch {
    return null
  }
  if (hash.length !== 20) return null
  return {
    record,
    owner,
    zone: parentOf(owner),
    hash,
    next: fromBase32Hex(record.data.nextHashedOwner),
    optOut: record.data.optOut,
    types: new Set(record.data.types),
    iterations: record.data.iterations,
    salt: record.data.salt,
  }
}

export function nsec3Views(records: readonly DnsRecord[]): Nsec3View[] {
  const out: Nsec3View[] = []
  for (const record of records) {
    if (record.type !== 'NSEC3') continue
    let view = views.get(record)
    if (view === undefined) {
      view = viewOf(record)
      views.set(record, view)
    }
    if (view) out.push(view)
  }
  return out
}

export interface ClosestEncloserProof {
  closest: Name
  nextCloser: Name
  match: Nsec3View
  cover: Nsec3View
}

// Hashes are costly by design (iterations); the same names come up for every
// validation under a zone, so recent ones are remembered across validations.
const hashes = new Map<string, Buffer>()
const HASHES_MAX = 10_000

/** Forgets every remembered hash (cold-chain benchmarks). */
export function forgetNsec3Hashes(): void {
  hashes.clear()
}

/** The NSEC3 records of one zone, with the hashing done once per name and parameter set. */
export class Nsec3Set {
  readonly views: readonly Nsec3View[]

  constructor(
    views: readonly Nsec3View[],
    readonly zone: Name,
  ) {
    this.views = views.filter((v) => sameName(v.zone, zone))
  }

  /** The highest iteration count among the records (RFC 9276 checks). */
  get iterations(): number {
    return Math.max(0, ...this.views.map((v) => v.iterations))
  }

  private hashOf(name: Name, view: Nsec3View): Buffer {
    const key = `${view.salt}/${view.iterations}/${name.text}`
    let hash = hashes.get(key)
    if (!hash) {
      hash = nsec3Hash(name, view.salt, view.iterations)
      if (hashes.size >= HASHES_MAX) hashes.delete(hashes.keys().next().value!)
      hashes.set(key, hash)
    }
    return hash
  }

  matching(name: Name): Nsec3View | undefined {
    return this.views.find((v) => v.hash.equals(this.hashOf(name, v)))
  }

  covering(name: Name): Nsec3View | undefined {
    return this.views.find((v) => {
      const h = this.hashOf(name, v)
      const afterOwner = Buffer.compare(v.hash, h) < 0
      const beforeNext = Buffer.compare(h, v.next) < 0
      // The record with the highest hash wraps around to the lowest.
      return Buffer.compare(v.hash, v.next) < 0 ? afterOwner && beforeNext : afterOwner || beforeNext
    })
  }

  /**
   * §8.3: the longest ancestor of the name with a matching NSEC3, and an NSEC3
   * covering the name one label longer. A delegation's or DNAME's NSEC3 cannot be the
   * closest encloser (§8.3, RFC 6840 §4.1): names below it are another zone's.
   */
  closestEncloser(name: Name): ClosestEncloserProof | string {
    let candidate = name
    let nextCloser: Name | null = null
    for (;;) {
      const match = this.matching(candidate)
      if (match) {
        if (!nextCloser) return `${name.text} has a matching NSEC3, so it exists`
        if ((match.types.has('NS') && !match.types.has('SOA')) || match.types.has('DNAME')) {
          return `the closest encloser ${candidate.text} is a delegation or DNAME; its NSEC3 cannot deny names below it`
        }
        const cover = this.covering(nextCloser)
        if (!cover) return `no NSEC3 covers the next closer name ${nextCloser.text}`
        return { closest: candidate, nextCloser, match, cover }
      }
      if (sameName(candidate, this.zone) || labelsOf(candidate).length === 0) return `no NSEC3 matches any ancestor of ${name.text} in ${this.zone.text}`
      nextCloser = candidate
      candidate = parentOf(candidate)
    }
  }
}

export type Nsec3Proof =
  | {
      ok: true
      records: Nsec3View[]
      optOut: boolean
      kind: 'nodata' | 'wildcard_nodata' | 'nxdomain' | 'no_exact_match' | 'no_ds'
      /** The covered next closer name, for proofs that rest on one (null for a matching NSEC3). */
      nextCloser: Name | null
    }
  | { ok: false; message: string }

function lacks(v: Nsec3View, type: string): boolean {
  return !v.types.has(type) && !v.types.has('CNAME')
}

function unique(views: Nsec3View[]): Nsec3View[] {
  return views.filter((v, i) => views.indexOf(v) === i)
}

/** §8.5 (NODATA), §8.6 (DS NODATA, opt-out allowed), §8.7 (wildcard NODATA). */
export function proveNodata3(set: Nsec3Set, qname: Name, qtype: string): Nsec3Proof {
  const match = set.matching(qname)
  if (match) {
    if (!lacks(match, qtype)) return { ok: false, message: `the NSEC3 for ${qname.text} lists ${qtype} or CNAME` }
    if (qtype !== 'DS' && match.types.has('NS') && !match.types.has('SOA')) return { ok: false, message: `the NSEC3 for ${qname.text} is a delegation's and cannot deny ${qtype}` }
    return { ok: true, records: [match], optOut: false, kind: 'nodata', nextCloser: null }
  }
  const proof = set.closestEncloser(qname)
  if (typeof proof === 'string') return { ok: false, message: proof }
  if (qtype === 'DS') {
    if (!proof.cover.optOut) return { ok: false, message: `the NSEC3 covering ${proof.nextCloser.text} has no opt-out flag, so ${qname.text} does not exist (NXDOMAIN expected)` }
    return { ok: true, records: unique([proof.match, proof.cover]), optOut: true, kind: 'no_ds', nextCloser: proof.nextCloser }
  }
  const wildcard = set.matching(childOf('*', proof.closest))
  if (!wildcard || !lacks(wildcard, qtype)) return { ok: false, message: `no NSEC3 shows that ${qname.text} exists without ${qtype}` }
  return { ok: true, records: unique([proof.match, proof.cover, wildcard]), optOut: proof.cover.optOut, kind: 'wildcard_nodata', nextCloser: proof.nextCloser }
}

/** §8.4: closest encloser proof plus no wildcard at the closest encloser. */
export function proveNxdomain3(set: Nsec3Set, qname: Name): Nsec3Proof {
  const proof = set.closestEncloser(qname)
  if (typeof proof === 'string') return { ok: false, message: proof }
  const wildcard = childOf('*', proof.closest)
  const wildcardCover = set.covering(wildcard)
  if (!wildcardCover) return { ok: false, message: `no NSEC3 shows that ${wildcard.text} does not exist` }
  return { ok: true, records: unique([proof.match, proof.cover, wildcardCover]), optOut: proof.cover.optOut, kind: 'nxdomain', nextCloser: proof.nextCloser }
}

/** §8.8: a wildcard expansion needs the next closer name of its closest encloser covered. */
export function proveNoExactMatch3(set: Nsec3Set, qname: Name, closest: Name): Nsec3Proof {
  const labels = labelsOf(qname)
  const closestLabels = labelsOf(closest).length
  if (labels.length <= closestLabels) return { ok: false, message: `${qname.text} is not below ${closest.text}` }
  const nextCloser = parentChain(qname, labels.length - closestLabels - 1)
  const cover = set.covering(nextCloser)
  if (!cover) return { ok: false, message: `no NSEC3 covers the next closer name ${nextCloser.text}` }
  return { ok: true, records: [cover], optOut: cover.optOut, kind: 'no_exact_match', nextCloser }
}

function parentChain(name: Name, steps: number): Name {
  let current = name
  for (let i = 0; i < steps; i++) current = parentOf(current)
  return current
}
