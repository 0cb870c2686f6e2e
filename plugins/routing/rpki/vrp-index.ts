import type { FamilyIndex } from './family-index.ts'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { ASN, META, MORE, PARENT, asnBits, buildFamilyIndex, buildSteps, deepestCovering, deepestCovering4 } from './family-index.ts'
import { INVALID, NOT_IPV4, formatPrefixWords, scanIpv4PrefixText, scanPrefix } from './prefix-words.ts'
import type { ParsedVrps } from './vrp-json.ts'

// RFC 6811 route origin validation over both families' prefix trees.
//
// A VRP covers a route when its prefix contains the route's prefix (length <=
// the route's). A covering VRP matches when its ASN is the route's origin and its
// maxLength >= the route's length. Valid: some covering VRP matches. Invalid:
// covered, none matches. NotFound: nothing covers it.
//
// AS0 VRPs (RFC 6483 §4, RFC 7607) cover like any other but never match, not even
// a route whose origin is 0: an AS0 ROA says "no route here", and AS 0 is never a
// valid origin.
//
// Invalid is split the way operators read it: `length` when a covering VRP has the
// route's origin but a maxLength too short for it, `as` when no covering VRP has
// the route's origin at all.

export const NOT_FOUND = 0
export const VALID = 1
export const INVALID_AS = 2
export const INVALID_LENGTH = 3
/** validate() on text that is not a prefix. */
export const BAD_ROUTE = -1

export type OriginState = 'valid' | 'invalid' | 'not-found'

export interface Vrp {
  prefix: string
  max_length: number
  asn: number
  ta: string | null
}

export interface OriginValidation {
  state: OriginState
  /** Why invalid: no covering VRP for this AS, or one whose maxLength is too short. */
  reason: 'as' | 'length' | null
  /** Covering VRPs with this origin and a long enough maxLength. */
  matched: Vrp[]
  /** Covering VRPs of other ASes (AS0 VRPs included). */
  unmatched_as: Vrp[]
  /** Covering VRPs of this AS whose maxLength is shorter than the route. */
  unmatched_length: Vrp[]
}

export interface VrpIndexStats {
  vrps: number
  ipv4: number
  ipv6: number
  /** Distinct prefixes (tree nodes). */
  prefixes: number
  duplicates: number
  rejected: number
}

export class VrpIndex {
  private readonly words = new Uint32Array(4)

  private constructor(
    readonly v4: FamilyIndex,
    readonly v6: FamilyIndex,
    readonly tas: readonly string[],
    readonly stats: VrpIndexStats,
  ) {}

  static build(parsed: ParsedVrps): VrpIndex {
    return VrpIndex.of(parsed, buildFamilyIndex(parsed.v4), buildFamilyIndex(parsed.v6))
  }

  /** The same build, giving the event loop a turn between its steps (the service's refresh path). */
  static async buildInSlices(parsed: ParsedVrps): Promise<VrpIndex> {
    const family = async (steps: Generator<void, FamilyIndex>) => {
      for (;;) {
        const step = steps.next()
        if (step.done) return step.value
        await nextTurn()
      }
    }
    const v4 = await family(buildSteps(parsed.v4))
    const v6 = await family(buildSteps(parsed.v6))
    return VrpIndex.of(parsed, v4, v6)
  }

  private static of(parsed: ParsedVrps, v4: FamilyIndex, v6: FamilyIndex): VrpIndex {
    return new VrpIndex(v4, v6, parsed.tas, {
      vrps: v4.vrps + v6.vrps,
      ipv4: v4.vrps,
      ipv6: v6.vrps,
      prefixes: v4.nodes + v6.nodes,
      duplicates: v4.duplicates + v6.duplicates,
      rejected: parsed.rejected,
    })
  }

  /**
   * The state of a route given as an IPv4 network (unsigned 32-bit, host bits
   * clear), length and origin: NOT_FOUND, VALID, INVALID_AS or INVALID_LENGTH.
   * Allocation-free; the hot path.
   */
  validate4(network: number, len: number, origin: number): number {
    const j = deepestCovering4(this.v4, network, len)
    return j < 0 ? NOT_FOUND : this.judge(this.v4, j, len, origin)
  }

  /** The same for IPv6: the route's four words (host bits clear) from `offset`. */
  validate6(words: ArrayLike<number>, offset: number, len: number, origin: number): number {
    const j = deepestCovering(this.v6, words, offset, len)
    return j < 0 ? NOT_FOUND : this.judge(this.v6, j, len, origin)
  }

  /** The same for a prefix in text ("192.0.2.0/24"; host bits are cleared); BAD_ROUTE if it is not one. */
  validate(prefix: string, origin: number): number {
    const words = this.words
    const code = scanIpv4PrefixText(prefix, words)
    if (code >= 0) return this.validate4(words[0] as number, code & 255, origin)
    if (code !== NOT_IPV4) return BAD_ROUTE
    const six = scanPrefix(prefix, words, 'mask')
    return six === INVALID ? BAD_ROUTE : this.validate6(words, 0, six & 255, origin)
  }

  /** The state of a route read once (parseRoute), for one origin: the service's per-origin path. Allocation-free. */
  verdict(route: Route, origin: number): number {
    if (route.family === 4) return this.validate4(route.w0 >>> 0, route.len, origin)
    return this.validate6(this.wordsOf(route), 0, route.len, origin)
  }

  /** The route's words in the scratch array (valid until the next call). */
  private wordsOf(route: Route): Uint32Array {
    const w = this.words
    w[0] = route.w0
    w[1] = route.w1
    w[2] = route.w2
    w[3] = route.w3
    return w
  }

  /** The verdict given the deepest covering node j: its VRPs and its ancestors'. */
  private judge(ix: FamilyIndex, j: number, len: number, origin: number): number {
    // origin 0 never matches (AS0 VRPs included): no scan, it stays invalid.
    if (origin === 0) return INVALID_AS
    const node = ix.node
    const stride = ix.stride
    const at = ix.words
    let length = false
    // The deepest node's inline VRP first (the usual match), then the filter says whether the rest can match.
    if (node[j * stride + at + ASN] === origin) {
      if ((((node[j * stride + at + META] as number) >>> 8) & 255) >= len) return VALID
      length = true
    }
    const bits = asnBits(origin)
    if (((ix.filter[j] as number) & bits) !== bits) return length ? INVALID_LENGTH : INVALID_AS
    for (; j >= 0; j = (node[j * stride + at + PARENT] as number) - 1) {
      const meta = node[j * stride + at + META] as number
      // The node's first VRP is inline; the rest, rarely there, in `extra`.
      if (node[j * stride + at + ASN] === origin) {
        if (((meta >>> 8) & 255) >= len) return VALID
        length = true
      }
      if (meta & MORE) {
        const extra = ix.extra
        const end = ix.extraFirst[j + 1] as number
        for (let k = ix.extraFirst[j] as number; k < end; k++) {
          if (extra[k * 2] === origin) {
            if (((extra[k * 2 + 1] as number) & 255) >= len) return VALID
            length = true
          }
        }
      }
    }
    return length ? INVALID_LENGTH : INVALID_AS
  }

  /** Every VRP covering the route, most specific first: the explanation an answer carries, built once per request. */
  coveringRoute(route: Route): Vrp[] {
    const ix = route.family === 4 ? this.v4 : this.v6
    const node = ix.node
    const stride = ix.stride
    const at = ix.words
    const out: Vrp[] = []
    for (let j = deepestCovering(ix, this.wordsOf(route), 0, route.len); j >= 0; j = (node[j * stride + at + PARENT] as number) - 1) {
      const meta = node[j * stride + at + META] as number
      const text = formatPrefixWords(ix.family, node, j * stride, meta & 255)
      out.push({ prefix: text, max_length: (meta >>> 8) & 255, asn: node[j * stride + at + ASN] as number, ta: this.tas[(meta >>> 16) & 255] || null })
      if (meta & MORE) {
        const end = ix.extraFirst[j + 1] as number
        for (let k = ix.extraFirst[j] as number; k < end; k++) {
          const v = ix.extra[k * 2 + 1] as number
          out.push({ prefix: text, max_length: v & 255, asn: ix.extra[k * 2] as number, ta: this.tas[v >>> 8] || null })
        }
      }
    }
    return out
  }

  /**
   * The verdict for one origin (from the allocation-free path) with the covering
   * VRPs sorted into matched / unmatched. `covering` is coveringRoute(route),
   * computed once when several origins of one route are explained.
   */
  explainRoute(route: Route, origin: number, covering: readonly Vrp[] = this.coveringRoute(route)): OriginValidation {
    const code = this.verdict(route, origin)
    const out: OriginValidation = { state: stateName(code), reason: code === INVALID_AS ? 'as' : code === INVALID_LENGTH ? 'length' : null, matched: [], unmatched_as: [], unmatched_length: [] }
    for (const v of covering) {
      // AS0 VRPs cover like any other but never match, not even origin 0.
      if (v.asn !== origin || v.asn === 0) out.unmatched_as.push(v)
      else if (v.max_length >= route.len) out.matched.push(v)
      else out.unmatched_length.push(v)
    }
    return out
  }

  /** Every VRP covering the prefix, most specific first; null if the text is not a prefix. */
  covering(prefix: string): Vrp[] | null {
    const route = parseRoute(prefix)
    return route === null ? null : this.coveringRoute(route)
  }

  /** explainRoute for a prefix in text; null if the text is not a prefix. */
  explain(prefix: string, origin: number): OriginValidation | null {
    const route = parseRoute(prefix)
    return route === null ? null : this.explainRoute(route, origin)
  }
}

/**
 * A route read once: family, length and the prefix's 32-bit words (host bits
 * cleared; IPv4 uses w0), held as signed 32-bit integers so that the object is
 * one small allocation with no boxed numbers in it.
 */
export interface Route {
  family: 4 | 6
  len: number
  w0: number
  w1: number
  w2: number
  w3: number
}

const scratch = new Uint32Array(4)

/** Reads a route prefix ("192.0.2.0/24"; host bits are cleared) once per request; null if the text is not one. */
export function parseRoute(prefix: string): Route | null {
  const w = scratch
  let code = scanIpv4PrefixText(prefix, w)
  if (code === NOT_IPV4) code = scanPrefix(prefix, w, 'mask')
  else if (code >= 0) w[1] = w[2] = w[3] = 0
  if (code < 0) return null
  return { family: code >> 8 === 4 ? 4 : 6, len: code & 255, w0: (w[0] as number) | 0, w1: (w[1] as number) | 0, w2: (w[2] as number) | 0, w3: (w[3] as number) | 0 }
}

export function stateName(code: number): OriginState {
  return code === VALID ? 'valid' : code === NOT_FOUND ? 'not-found' : 'invalid'
}
