import type { VrpColumns } from './vrp-columns.ts'
import { sortByByte, sortByWord } from './radix-order.ts'

// The prefix tree of one address family's VRPs, flattened into typed arrays.
//
// Nodes are the distinct VRP prefixes. A node's parent is the nearest VRP prefix
// that covers it, so the ancestors of a node are exactly the VRP prefixes that
// cover it: the tree is a path-compressed trie holding only the nodes that carry
// VRPs (branch-only nodes are never visited by origin validation, so they are not
// stored). Nodes are in address order (start, then length), which replaces the
// top-down descent with a binary search:
//
//   Every VRP prefix covering an address a is an ancestor of (or is) p, the last
//   node whose start is <= a. (A covering q has q.start <= a, so q is at or
//   before p; q and p overlap, so one contains the other; if p were inside q
//   with the same start, p would be the longer and sort after q, so q contains p.)
//
// So: binary search (narrowed by a 65536-entry table of buckets, see bucketOf) to p,
// then walk parent links up to the first node that covers the route with a length
// <= the route's; that node and all its ancestors are the covering VRPs
// (RFC 6811 "Covered"). The tree for 500k VRPs is ~9 MB; a one-bit-per-level
// trie of the same set needs ~6M nodes.
//
// Layout: validation is bound by memory latency (random routes miss the caches:
// the same routes in address order validate three times faster), so what one
// step of the walk reads sits in one cache line. A node is `stride` words of one
// Uint32Array — IPv4: [start, meta, parent + 1, asn] (16 bytes), IPv6: [4 words,
// meta, parent + 1, asn, unused] (32 bytes) — where meta = length |
// maxLength << 8 | trust anchor << 16 | MORE, and asn/maxLength/trust anchor are
// the node's first VRP, inline: most prefixes have one VRP, so most walks never
// leave the node array. The VRPs beyond the first (flag MORE) are pairs
// [asn, maxLength | trust anchor << 8] in `extra`, node i's from extraFirst[i] to
// extraFirst[i + 1].
//
// Filter: an invalid-as verdict has to look at every covering VRP, i.e. walk all
// ancestors (a cache miss each; 3-4 nodes deep on average in the benchmark set).
// filter[i] is a 32-bit Bloom filter (two bits per ASN) of every ASN such a walk
// would see beyond node i's inline VRP — its other VRPs and all its ancestors'.
// When the origin's bits are not all in it, the walk cannot match and is skipped
// (one extra read from a 4-byte-per-node array instead of the walk).

export interface FamilyIndex {
  family: 4 | 6
  /** Words per prefix: 1 (IPv4) or 4 (IPv6). */
  words: number
  /** Words per node: 4 (IPv4) or 8 (IPv6). */
  stride: number
  /** Distinct VRP prefixes (tree nodes). */
  nodes: number
  node: Uint32Array
  /** VRPs after each node's first, [asn, maxLength | ta << 8], grouped by node, by ASN then maxLength. */
  extra: Uint32Array
  /** extraFirst[i] .. extraFirst[i + 1] - 1: node i's VRPs in `extra` (nodes + 1 entries). */
  extraFirst: Uint32Array
  /** bucket[t] = first node whose bucketOf() is >= t (t = 0..65536). */
  bucket: Uint32Array
  /** filter[i]: Bloom filter (asnBits) of the ASNs of node i's other VRPs and of all its ancestors' VRPs. */
  filter: Uint32Array
  /** VRPs kept (exact duplicates dropped). */
  vrps: number
  duplicates: number
}

// Offsets of a node's fields after its prefix words, and the meta bits.
export const META = 0
export const PARENT = 1
export const ASN = 2
export const MORE = 1 << 24

/**
 * The bucket (0..65535) of a prefix by its first word, monotone in address order.
 * IPv4: the top 16 bits. IPv6: bits 4-19 within 2000::/4, where all global
 * unicast space (and so nearly every VRP) lies — the top 16 bits would put all
 * of 2001::/16 or 2a02::/16 (thousands of VRPs each) in one bucket; what lies
 * below or above 2000::/4 shares the first or the last bucket.
 */
export function bucketOf(family: 4 | 6, w0: number): number {
  if (family === 4) return w0 >>> 16
  const t = (w0 >>> 12) - 0x20000
  return t < 0 ? 0 : t > 0xffff ? 0xffff : t
}

/** An ASN's two bits in a node's 32-bit filter. */
export const asnBits = (asn: number): number => (1 << (Math.imul(asn, 0x9e3779b1) >>> 27)) | (1 << (Math.imul(asn, 0x85ebca6b) >>> 27))

export const lenOf = (ix: FamilyIndex, i: number): number => (ix.node[i * ix.stride + ix.words + META] as number) & 255
function sameWords(w: Uint32Array, words: number, i: number, j: number): boolean {
  for (let k = 0; k < words; k++) if (w[i * words + k] !== w[j * words + k]) return false
  return true
}

/** Does node i cover the prefix words `w` from `wo` on (any length: the caller checks it)? */
export function nodeCovers(ix: FamilyIndex, i: number, w: ArrayLike<number>, wo: number): boolean {
  const base = i * ix.stride
  const len = (ix.node[base + ix.words + META] as number) & 255
  for (let k = 0; k < ix.words; k++) {
    const keep = len - 32 * k
    if (keep <= 0) return true
    const x = ((ix.node[base + k] as number) ^ (w[wo + k] as number)) >>> 0
    if (keep >= 32) {
      if (x !== 0) return false
    } else if (x >>> (32 - keep) !== 0) return false
  }
  return true
}

export function buildFamilyIndex(c: VrpColumns): FamilyIndex {
  const steps = buildSteps(c)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * The build as steps of a few tens of milliseconds at most (one radix pass, one
 * sweep), so a refresh can let requests through between them.
 */
export function* buildSteps(c: VrpColumns): Generator<void, FamilyIndex> {
  const n = c.n
  const words = c.family === 4 ? 1 : 4
  const stride = c.family === 4 ? 4 : 8
  let order: Uint32Array = new Uint32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  let scratch: Uint32Array = new Uint32Array(n)
  // Least significant key first: maxLength, ASN, length, then the words from last to first.
  ;[order, scratch] = sortByByte(order, scratch, n, c.maxLen)
  yield
  ;[order, scratch] = sortByWord(order, scratch, n, c.asn, 1, 0)
  yield
  ;[order, scratch] = sortByByte(order, scratch, n, c.len)
  yield
  for (let k = words - 1; k >= 0; k--) {
    ;[order, scratch] = sortByWord(order, scratch, n, c.words, words, k)
    yield
  }

  // Sized for the worst case (every VRP its own node) and trimmed after.
  const node = new Uint32Array(n * stride)
  const extra = new Uint32Array(n * 2)
  const extraFirst = new Uint32Array(n + 1)
  let nodes = 0
  let extras = 0
  let vrps = 0
  let prev = -1
  for (let r = 0; r < n; r++) {
    const i = order[r] as number
    const ta = c.ta[i] as number
    if (prev < 0 || c.len[i] !== c.len[prev] || !sameWords(c.words, words, i, prev)) {
      const base = nodes * stride
      for (let k = 0; k < words; k++) node[base + k] = c.words[i * words + k] as number
      node[base + words + META] = (c.len[i] as number) | ((c.maxLen[i] as number) << 8) | (ta << 16)
      node[base + words + ASN] = c.asn[i] as number
      extraFirst[nodes] = extras
      nodes++
    } else if (c.asn[i] === c.asn[prev] && c.maxLen[i] === c.maxLen[prev]) {
      // The same VRP again (published under two trust anchors, or twice in one).
      prev = i
      continue
    } else {
      node[(nodes - 1) * stride + words + META] = (node[(nodes - 1) * stride + words + META] as number) | MORE
      extra[extras * 2] = c.asn[i] as number
      extra[extras * 2 + 1] = (c.maxLen[i] as number) | (ta << 8)
      extras++
    }
    vrps++
    prev = i
  }
  extraFirst[nodes] = extras

  const ix: FamilyIndex = {
    family: c.family,
    words,
    stride,
    nodes,
    node: node.slice(0, nodes * stride),
    extra: extra.slice(0, extras * 2),
    extraFirst: extraFirst.slice(0, nodes + 1),
    bucket: new Uint32Array(65537),
    filter: new Uint32Array(nodes),
    vrps,
    duplicates: n - vrps,
  }

  yield
  // Parents: in address order a node's covering prefixes are on the stack of
  // still-open nodes before it (at most one per prefix length).
  const stack = new Int32Array(130)
  let depth = 0
  for (let i = 0; i < nodes; i++) {
    while (depth > 0 && !(lenOf(ix, stack[depth - 1] as number) <= lenOf(ix, i) && nodeCovers(ix, stack[depth - 1] as number, ix.node, i * stride))) depth--
    ix.node[i * stride + words + PARENT] = depth > 0 ? (stack[depth - 1] as number) + 1 : 0
    stack[depth++] = i
  }

  yield
  // Parents come before their children in address order, so one pass fills the filters.
  const filter = ix.filter
  for (let i = 0; i < nodes; i++) {
    const base = i * stride + words
    let bits = 0
    if ((ix.node[base + META] as number) & MORE) for (let k = ix.extraFirst[i] as number; k < (ix.extraFirst[i + 1] as number); k++) bits |= asnBits(ix.extra[k * 2] as number)
    const p = (ix.node[base + PARENT] as number) - 1
    if (p >= 0) bits |= (filter[p] as number) | asnBits(ix.node[p * stride + words + ASN] as number)
    filter[i] = bits
  }

  yield
  const bucket = ix.bucket
  let t = 0
  for (let i = 0; i < nodes; i++) {
    const top = bucketOf(c.family, ix.node[i * stride] as number)
    while (t <= top) bucket[t++] = i
  }
  while (t <= 65536) bucket[t++] = nodes
  return ix
}

/**
 * The deepest node covering the route (words from `wo`, length `len`) with a
 * length <= len, or -1: RFC 6811's candidate set is that node and its ancestors.
 */
export function deepestCovering(ix: FamilyIndex, w: ArrayLike<number>, wo: number, len: number): number {
  if (ix.family === 4) return deepestCovering4(ix, w[wo] as number, len)
  const node = ix.node
  const top = bucketOf(6, w[wo] as number)
  let lo = ix.bucket[top] as number
  let hi = ix.bucket[top + 1] as number
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    let cmp = 0
    for (let k = 0; k < 4 && cmp === 0; k++) {
      const a = node[mid * 8 + k] as number
      const b = w[wo + k] as number
      cmp = a < b ? -1 : a > b ? 1 : 0
    }
    if (cmp <= 0) lo = mid + 1
    else hi = mid
  }
  for (let j = lo - 1; j >= 0; j = (node[j * 8 + 4 + PARENT] as number) - 1) {
    if (((node[j * 8 + 4 + META] as number) & 255) <= len && nodeCovers(ix, j, w, wo)) return j
  }
  return -1
}

/** deepestCovering for IPv4, the hot path: `a` is the route's network as an unsigned 32-bit number. */
export function deepestCovering4(ix: FamilyIndex, a: number, len: number): number {
  const node = ix.node
  const top = a >>> 16
  let lo = ix.bucket[top] as number
  let hi = ix.bucket[top + 1] as number
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((node[mid * 4] as number) <= a) lo = mid + 1
    else hi = mid
  }
  for (let j = lo - 1; j >= 0; j = (node[j * 4 + 1 + PARENT] as number) - 1) {
    const nl = (node[j * 4 + 1 + META] as number) & 255
    if (nl <= len && (nl === 0 || ((node[j * 4] as number) ^ a) >>> (32 - nl) === 0)) return j
  }
  return -1
}
