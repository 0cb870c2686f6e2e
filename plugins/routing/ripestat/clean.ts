import { prefixMask } from '../../../runtime/ip/bits.ts'
import { formatCidr } from '../../../runtime/ip/format.ts'
import type { Cidr } from '../../../runtime/ip/ip-types.ts'
import { parseCidr } from '../../../runtime/ip/parse-cidr.ts'
import { parseAsn } from '../../../runtime/params/asn.ts'

// RIPEstat's answers are other people's data: every prefix is parsed again with
// the IP library and written in canonical form with host bits cleared, every ASN
// checked, and whatever fails is dropped (and counted, so answers can say so)
// rather than passed on.

export interface CleanPrefix {
  /** Canonical `network/len`, host bits cleared. */
  prefix: string
  cidr: Cidr
}

export function cleanPrefix(value: unknown): CleanPrefix | null {
  if (typeof value !== 'string') return null
  const parsed = parseCidr(value.trim())
  if (!parsed.ok) return null
  return { prefix: formatCidr(parsed.value), cidr: parsed.value }
}

/** An ASN as a number, from 3333, "3333" or "AS3333"; null if it is none. */
export function cleanAsn(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 && value <= 4_294_967_295 ? value : null
  if (typeof value !== 'string') return null
  const n = parseAsn(value)
  return typeof n === 'number' ? n : null
}

/** Does `outer` contain `inner` (equal counts)? */
export function contains(outer: Cidr, inner: Cidr): boolean {
  return (
    outer.version === inner.version &&
    outer.prefixLength <= inner.prefixLength &&
    (inner.network & prefixMask(outer.version, outer.prefixLength)) === outer.network
  )
}

export function sameBlock(a: Cidr, b: Cidr): boolean {
  return a.version === b.version && a.prefixLength === b.prefixLength && a.network === b.network
}

/** Address order: IPv4 first, then by network, shorter first. */
export function compareCidr(a: Cidr, b: Cidr): number {
  if (a.version !== b.version) return a.version - b.version
  if (a.network !== b.network) return a.network < b.network ? -1 : 1
  return a.prefixLength - b.prefixLength
}

/** Counts what a parse dropped, by what it was. */
export class Dropped {
  readonly counts: Record<string, number> = {}

  add(what: string): void {
    this.counts[what] = (this.counts[what] ?? 0) + 1
  }

  get total(): number {
    return Object.values(this.counts).reduce((a, b) => a + b, 0)
  }

  /** One sentence for the answer's messages, or null when nothing was dropped. */
  describe(call: string): string | null {
    const parts = Object.entries(this.counts).map(([what, n]) => `${n} ${what}`)
    return parts.length ? `infralens dropped from RIPEstat's ${call} answer: ${parts.join(', ')}` : null
  }
}
