// NSEC3 proofs for the loopback authoritative server (RFC 5155 §7.2): which of a
// signed zone's NSEC3 records go into a negative answer, a wildcard answer or a
// referral to an unsigned child. Written from the RFC apart from the service's
// validator (plugins/dnssec), so the two check each other.

import { createHash } from 'node:crypto'
import { fromBase32Hex } from '../../runtime/net/dns/dns-base32hex.ts'
import { lowercaseWire, wireLabels } from '../../runtime/net/dns/dns-name.ts'
import type { Zone } from './dns-zone.ts'
import type { ZoneRecord } from './zone-file.ts'

const TYPE_NSEC3 = 50

interface Entry {
  record: ZoneRecord
  hash: Buffer
  next: Buffer
}

export interface Nsec3Zone {
  /** The NSEC3 records that prove `name` does not exist: its closest provable encloser's and the one covering the next closer name. */
  closestEncloserProof(name: Buffer): ZoneRecord[]
  /** §7.2.2: closest encloser proof plus the record covering the wildcard at the closest encloser. */
  nxdomain(name: Buffer): ZoneRecord[]
  /** §7.2.3/§7.2.4: the record matching the name; for DS without one (opt-out), the closest provable encloser proof. */
  nodata(name: Buffer): ZoneRecord[]
  /** §7.2.5: wildcard NODATA: closest encloser, next closer cover, and the wildcard's own record. */
  wildcardNodata(name: Buffer, wildcard: Buffer): ZoneRecord[]
  /** §7.2.6: a wildcard answer carries the record covering the next closer name. */
  wildcardAnswer(name: Buffer, encloser: Buffer): ZoneRecord[]
}

function labelsToWire(labels: Buffer[]): Buffer {
  return Buffer.concat([...labels.flatMap((l) => [Buffer.from([l.length]), l]), Buffer.from([0])])
}

const chains = new WeakMap<Zone, Nsec3Zone | null>()

/** The zone's NSEC3 view, or null for zones signed with NSEC (or not at all). */
export function nsec3Of(zone: Zone): Nsec3Zone | null {
  if (chains.has(zone)) return chains.get(zone) as Nsec3Zone | null
  const entries: Entry[] = []
  let salt: Buffer = Buffer.alloc(0)
  let iterations = 0
  for (const node of zone.nodes.values()) {
    for (const record of node.get(TYPE_NSEC3) ?? []) {
      const rdata = record.rdata
      iterations = rdata.readUInt16BE(2)
      const saltLength = rdata[4] as number
      salt = rdata.subarray(5, 5 + saltLength)
      const hashLength = rdata[5 + saltLength] as number
      const next = rdata.subarray(6 + saltLength, 6 + saltLength + hashLength)
      const label = wireLabels(record.ownerWire)[0] as Buffer
      entries.push({ record, hash: fromBase32Hex(label.toString('latin1')), next })
    }
  }
  if (entries.length === 0) {
    chains.set(zone, null)
    return null
  }

  const hashOf = (name: Buffer): Buffer => {
    let digest = createHash('sha1').update(lowercaseWire(name)).update(salt).digest()
    for (let i = 0; i < iterations; i++) digest = createHash('sha1').update(digest).update(salt).digest()
    return digest
  }
  const match = (name: Buffer): ZoneRecord | undefined => {
    const h = hashOf(name)
    return entries.find((e) => e.hash.equals(h))?.record
  }
  const cover = (name: Buffer): ZoneRecord | undefined => {
    const h = hashOf(name)
    return entries.find((e) => (Buffer.compare(e.hash, e.next) < 0 ? Buffer.compare(e.hash, h) < 0 && Buffer.compare(h, e.next) < 0 : Buffer.compare(e.hash, h) < 0 || Buffer.compare(h, e.next) < 0))?.record
  }
  const originLabels = wireLabels(zone.originWire).length
  const defined = (records: Array<ZoneRecord | undefined>): ZoneRecord[] => records.filter((r): r is ZoneRecord => r !== undefined)

  /** The longest ancestor with an NSEC3 of its own, and the name one label below it toward `name`. */
  const provable = (name: Buffer): { encloser: Buffer; nextCloser: Buffer } => {
    const labels = wireLabels(name)
    for (let keep = labels.length - 1; keep >= originLabels; keep--) {
      const encloser = labelsToWire(labels.slice(labels.length - keep))
      if (match(encloser)) return { encloser, nextCloser: labelsToWire(labels.slice(labels.length - keep - 1)) }
    }
    return { encloser: zone.originWire, nextCloser: labelsToWire(labels.slice(labels.length - originLabels - 1)) }
  }

  const view: Nsec3Zone = {
    closestEncloserProof(name) {
      const { encloser, nextCloser } = provable(name)
      return defined([match(encloser), cover(nextCloser)])
    },
    nxdomain(name) {
      const { encloser } = provable(name)
      return defined([...view.closestEncloserProof(name), cover(Buffer.concat([Buffer.from([1, 0x2a]), encloser]))])
    },
    nodata(name) {
      const own = match(name)
      return own ? [own] : view.closestEncloserProof(name)
    },
    wildcardNodata(name, wildcard) {
      return defined([...view.closestEncloserProof(name), match(wildcard)])
    },
    wildcardAnswer(name, encloser) {
      const labels = wireLabels(name)
      const keep = wireLabels(encloser).length
      return defined([cover(labelsToWire(labels.slice(labels.length - keep - 1)))])
    },
  }
  chains.set(zone, view)
  return view
}
