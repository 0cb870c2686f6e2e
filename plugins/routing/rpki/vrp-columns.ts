// VRPs as columns of typed arrays, one set per address family: no object per VRP,
// so half a million of them cost a few megabytes and nothing for the GC to walk.
// IPv6 prefixes are four big-endian 32-bit words each.

export interface VrpColumns {
  family: 4 | 6
  n: number
  /** IPv4: one word per VRP; IPv6: four words per VRP, most significant first. */
  words: Uint32Array
  len: Uint8Array
  maxLen: Uint8Array
  asn: Uint32Array
  /** Index into the trust-anchor names; 0 = not given. */
  ta: Uint8Array
  /** When the VRP stops being valid, seconds since the epoch; 0 = the export does not say. */
  expires: Uint32Array
}

/** Appends VRPs, doubling the arrays as needed; `finish` trims them to size. */
export class VrpColumnsBuilder {
  n = 0
  private words: Uint32Array
  private len: Uint8Array
  private maxLen: Uint8Array
  private asn: Uint32Array
  private ta: Uint8Array
  private expires: Uint32Array
  private readonly stride: number

  constructor(
    readonly family: 4 | 6,
    capacity = 1024,
  ) {
    this.stride = family === 4 ? 1 : 4
    this.words = new Uint32Array(capacity * this.stride)
    this.len = new Uint8Array(capacity)
    this.maxLen = new Uint8Array(capacity)
    this.asn = new Uint32Array(capacity)
    this.ta = new Uint8Array(capacity)
    this.expires = new Uint32Array(capacity)
  }

  private grow(): void {
    const capacity = this.len.length * 2
    const words = new Uint32Array(capacity * this.stride)
    words.set(this.words)
    this.words = words
    const len = new Uint8Array(capacity)
    len.set(this.len)
    this.len = len
    const maxLen = new Uint8Array(capacity)
    maxLen.set(this.maxLen)
    this.maxLen = maxLen
    const asn = new Uint32Array(capacity)
    asn.set(this.asn)
    this.asn = asn
    const ta = new Uint8Array(capacity)
    ta.set(this.ta)
    this.ta = ta
    const expires = new Uint32Array(capacity)
    expires.set(this.expires)
    this.expires = expires
  }

  /** `w` holds the prefix's word(s) from `offset`: 1 for IPv4, 4 for IPv6. */
  add(w: ArrayLike<number>, offset: number, len: number, maxLen: number, asn: number, ta: number, expires: number): void {
    if (this.n === this.len.length) this.grow()
    const i = this.n++
    for (let k = 0; k < this.stride; k++) this.words[i * this.stride + k] = w[offset + k] as number
    this.len[i] = len
    this.maxLen[i] = maxLen
    this.asn[i] = asn
    this.ta[i] = ta
    this.expires[i] = expires
  }

  finish(): VrpColumns {
    const n = this.n
    return {
      family: this.family,
      n,
      words: this.words.slice(0, n * this.stride),
      len: this.len.slice(0, n),
      maxLen: this.maxLen.slice(0, n),
      asn: this.asn.slice(0, n),
      ta: this.ta.slice(0, n),
      expires: this.expires.slice(0, n),
    }
  }
}
