// Domain names as DNSSEC compares them: lowercased wire form (RFC 4034 §6.2), the
// canonical order (RFC 4034 §6.1: labels compared right to left, as bytes) and the
// ancestor arithmetic the chain walk and the denial proofs need.

import { encodeName, lowercaseWire, nameToText, wireLabels } from '../../runtime/net/dns/dns-name.ts'
import type { DnsRecord } from '../../runtime/net/dns/dns-records.ts'
import { wireOf } from '../../runtime/net/dns/dns-wire-store.ts'

/** A name in lowercase wire form with its text (no trailing dot, "." for the root). */
export interface Name {
  wire: Buffer
  text: string
}

export function nameOf(text: string): Name {
  const wire = lowercaseWire(encodeName(text))
  return { wire, text: nameToText(wire) }
}

export function nameFromWire(wire: Buffer): Name {
  const lower = lowercaseWire(wire)
  return { wire: lower, text: nameToText(lower) }
}

// Cached answers are handed out again and again; their owners are converted once.
const owners = new WeakMap<DnsRecord, Name>()

/** A record's owner, from its wire form when it has one (exact bytes, escapes and all). */
export function ownerOf(record: DnsRecord): Name {
  let owner = owners.get(record)
  if (!owner) {
    const wire = wireOf(record)
    owner = wire ? nameFromWire(wire.owner) : nameOf(record.name)
    owners.set(record, owner)
  }
  return owner
}

export const ROOT: Name = nameOf('.')

export function labelsOf(name: Name): Buffer[] {
  return wireLabels(name.wire)
}

export function labelCount(name: Name): number {
  return labelsOf(name).length
}

/** RFC 4034 §3.1.3: the RRSIG Labels value of an owner — a leading "*" does not count. */
export function rrsigLabelCount(name: Name): number {
  const labels = labelsOf(name)
  return labels[0]?.length === 1 && labels[0][0] === 0x2a ? labels.length - 1 : labels.length
}

function fromLabels(labels: Buffer[]): Name {
  const parts: Buffer[] = []
  for (const label of labels) parts.push(Buffer.from([label.length]), label)
  parts.push(Buffer.from([0]))
  return nameFromWire(Buffer.concat(parts))
}

/** The name made of the rightmost `count` labels ("." for 0). */
export function suffixOf(name: Name, count: number): Name {
  const labels = labelsOf(name)
  return count >= labels.length ? name : fromLabels(labels.slice(labels.length - count))
}

export function parentOf(name: Name): Name {
  const labels = labelsOf(name)
  return labels.length === 0 ? name : fromLabels(labels.slice(1))
}

export function childOf(label: string, name: Name): Name {
  return fromLabels([Buffer.from(label), ...labelsOf(name)])
}

export function sameName(a: Name, b: Name): boolean {
  return a.wire.equals(b.wire)
}

/** a is b or below it. */
export function isAtOrBelow(a: Name, b: Name): boolean {
  const la = labelsOf(a)
  const lb = labelsOf(b)
  if (lb.length > la.length) return false
  for (let i = 1; i <= lb.length; i++) if (!(la[la.length - i] as Buffer).equals(lb[lb.length - i] as Buffer)) return false
  return true
}

export function isBelow(a: Name, b: Name): boolean {
  return isAtOrBelow(a, b) && !sameName(a, b)
}

/** RFC 4034 §6.1 canonical order. */
export function compareNames(a: Name, b: Name): number {
  const la = labelsOf(a).reverse()
  const lb = labelsOf(b).reverse()
  for (let i = 0; i < Math.min(la.length, lb.length); i++) {
    const c = Buffer.compare(la[i] as Buffer, lb[i] as Buffer)
    if (c !== 0) return c
  }
  return la.length - lb.length
}

/** The names from just below `top` down to `name` itself, in that order. */
export function namesBetween(top: Name, name: Name): Name[] {
  const total = labelCount(name)
  const out: Name[] = []
  for (let count = labelCount(top) + 1; count <= total; count++) out.push(suffixOf(name, count))
  return out
}

/** The longest name both are at or below. */
export function commonAncestor(a: Name, b: Name): Name {
  const la = labelsOf(a)
  const lb = labelsOf(b)
  let shared = 0
  while (shared < Math.min(la.length, lb.length) && (la[la.length - 1 - shared] as Buffer).equals(lb[lb.length - 1 - shared] as Buffer)) shared++
  return suffixOf(a, shared)
}
