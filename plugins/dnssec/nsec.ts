// NSEC denial of existence (RFC 4035 §5.4, RFC 4034 §4): which NSEC matches a name,
// which covers it, and the proofs built from them — NODATA (also at an empty
// non-terminal and at a wildcard), NXDOMAIN with its no-wildcard part, and the "no
// exact match" half of a wildcard expansion. An NSEC from a delegation point (NS
// without SOA) or a DNAME says nothing about names below it (RFC 6840 §4.1).

import type { DnsRecord, NsecRecord } from '../../runtime/net/dns/dns-records.ts'
import { wireOrThrow } from './canonical.ts'
import { childOf, commonAncestor, compareNames, isAtOrBelow, isBelow, labelCount, nameFromWire, ownerOf, sameName, type Name } from './names.ts'

export interface NsecView {
  record: NsecRecord
  owner: Name
  next: Name
  types: ReadonlySet<string>
}

function nextNameWire(rdata: Buffer): Buffer {
  let pos = 0
  while (pos < rdata.length && rdata[pos] !== 0) pos += (rdata[pos] as number) + 1
  return rdata.subarray(0, pos + 1)
}

// Cached answers come back as the same record objects: each is read once.
const views = new WeakMap<NsecRecord, NsecView>()

export function nsecViews(records: readonly DnsRecord[]): NsecView[] {
  const out: NsecView[] = []
  for (const record of records) {
    if (record.type !== 'NSEC') continue
    let view = views.get(record)
    if (!view) {
      view = { record, owner: ownerOf(record), next: nameFromWire(nextNameWire(wireOrThrow(record).rdata)), types: new Set(record.data.types) }
      views.set(record, view)
    }
    out.push(view)
  }
  return out
}

export function matchingNsec(nsecs: readonly NsecView[], name: Name): NsecView | undefined {
  return nsecs.find((n) => sameName(n.owner, name))
}

function isCut(n: NsecView): boolean {
  return (n.types.has('NS') && !n.types.has('SOA')) || n.types.has('DNAME')
}

/** The NSEC proving no name exists between its owner and next name, for this name. */
export function coveringNsec(nsecs: readonly NsecView[], name: Name): NsecView | undefined {
  return nsecs.find((n) => {
    if (isBelow(name, n.owner) && isCut(n)) return false
    const afterOwner = compareNames(n.owner, name) < 0
    const beforeNext = compareNames(name, n.next) < 0
    // The last NSEC of a zone points back at the apex and covers everything after it.
    return compareNames(n.owner, n.next) < 0 ? afterOwner && beforeNext : afterOwner || beforeNext
  })
}

/** RFC 4035 §5.4: the longest ancestor of the name that the covering NSEC shows exists. */
export function closestEncloser(cover: NsecView, name: Name): Name {
  const a = commonAncestor(name, cover.owner)
  const b = commonAncestor(name, cover.next)
  return labelCount(a) >= labelCount(b) ? a : b
}

export type NsecProof = { ok: true; records: NsecView[]; kind: 'nodata' | 'empty_non_terminal' | 'wildcard_nodata' | 'nxdomain' | 'no_exact_match' } | { ok: false; message: string }

function lacks(n: NsecView, type: string): boolean {
  return !n.types.has(type) && !n.types.has('CNAME')
}

export function proveNodata(nsecs: readonly NsecView[], qname: Name, qtype: string): NsecProof {
  const match = matchingNsec(nsecs, qname)
  if (match) {
    if (!lacks(match, qtype)) return { ok: false, message: `the NSEC at ${qname.text} lists ${qtype} or CNAME, so it cannot deny them` }
    // At a delegation the parent's NSEC only speaks for DS (RFC 6840 §4.4).
    if (qtype !== 'DS' && isCut(match)) return { ok: false, message: `the NSEC at ${qname.text} is a delegation's and cannot deny ${qtype}` }
    return { ok: true, records: [match], kind: 'nodata' }
  }
  const cover = coveringNsec(nsecs, qname)
  if (!cover) return { ok: false, message: `no NSEC matches or covers ${qname.text}` }
  if (isBelow(cover.next, qname)) return { ok: true, records: [cover], kind: 'empty_non_terminal' }
  const wildcard = childOf('*', closestEncloser(cover, qname))
  const source = matchingNsec(nsecs, wildcard)
  if (source && lacks(source, qtype)) return { ok: true, records: [cover, source], kind: 'wildcard_nodata' }
  return { ok: false, message: `no NSEC shows that ${qname.text} exists without ${qtype}` }
}

export function proveNxdomain(nsecs: readonly NsecView[], qname: Name): NsecProof {
  const cover = coveringNsec(nsecs, qname)
  if (!cover) return { ok: false, message: `no NSEC covers ${qname.text}` }
  if (isBelow(cover.next, qname)) return { ok: false, message: `the NSEC shows names below ${qname.text}, so it exists` }
  const wildcard = childOf('*', closestEncloser(cover, qname))
  const wildcardCover = coveringNsec(nsecs, wildcard)
  if (!wildcardCover) return { ok: false, message: `no NSEC shows that ${wildcard.text} does not exist` }
  return { ok: true, records: wildcardCover === cover ? [cover] : [cover, wildcardCover], kind: 'nxdomain' }
}

/** A wildcard-expanded answer: the name itself must not exist (RFC 4035 §5.3.4). */
export function proveNoExactMatch(nsecs: readonly NsecView[], qname: Name, closest: Name): NsecProof {
  const cover = coveringNsec(nsecs, qname)
  if (!cover || !isAtOrBelow(qname, closest)) return { ok: false, message: `no NSEC shows that ${qname.text} itself does not exist` }
  // ... nor any name between it and the wildcard's parent, which would block the expansion
  if (!sameName(closestEncloser(cover, qname), closest)) return { ok: false, message: `the NSEC does not show ${closest.text} as the closest encloser of ${qname.text}` }
  return { ok: true, records: [cover], kind: 'no_exact_match' }
}
