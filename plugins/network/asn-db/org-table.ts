/**
 * AS organisation names, each stored once per ASN. The CSVs repeat the name on
 * every range of its AS (412k IPv4 rows, ~84k ASNs), so rows keep a small id.
 *
 * Loading never decodes text: an ASN seen before with a name of the same length
 * and FNV-1a hash reuses the earlier id, and a new name is only copied as bytes.
 * Names are decoded on first lookup and kept (decoding all 81k at load was ~60 ms,
 * a third of the IPv4 load, measured). A different name for an ASN already seen
 * gets its own id, so nothing is lost if a future file gives one AS two names.
 *
 * ASN -> id is an open-addressing table on typed arrays: a Map keyed by ASNs above
 * 2^31 (heap numbers, not small integers) was measured ~3x slower here.
 */
export class OrgTable {
  /**
   * Slots of [asn, name id + 1 (0: empty), name hash, name length]: one cache line
   * per probe (four separate arrays cost a miss each, ~30 ms of the load, measured).
   */
  private slots: Uint32Array = new Uint32Array(4 << 18)
  private used = 0
  private count = 0
  private offsets: Uint32Array = new Uint32Array(1 << 16)
  private lengths: Uint32Array = new Uint32Array(1 << 16)
  /** Names whose doubled quotes ("") still need undoing. */
  private readonly quoted = new Set<number>()
  private bytes = Buffer.alloc(1 << 21)
  private size = 0

  /** Id of the name in bytes [from, to) of buf for this ASN. */
  intern(asn: number, buf: Uint8Array, from: number, to: number, hash: number, quoted: boolean): number {
    const slots = this.slots
    const mask = (slots.length >>> 2) - 1
    let slot = Math.imul(asn, 0x9e3779b1) & mask
    for (;;) {
      const at = slot << 2
      const id = slots[at + 1] as number
      if (id === 0) break
      if (slots[at] === asn) {
        if (slots[at + 2] === hash && slots[at + 3] === to - from) return id - 1
        break
      }
      slot = (slot + 1) & mask
    }
    const id = this.add(buf, from, to, quoted)
    this.remember(asn, id, hash, to - from)
    return id
  }

  private add(buf: Uint8Array, from: number, to: number, quoted: boolean): number {
    const id = this.count++
    if (id === this.offsets.length) {
      this.offsets = grow(this.offsets)
      this.lengths = grow(this.lengths)
    }
    const length = to - from
    while (this.size + length > this.bytes.length) {
      const bigger = Buffer.alloc(this.bytes.length * 2)
      this.bytes.copy(bigger, 0, 0, this.size)
      this.bytes = bigger
    }
    this.bytes.set(buf.subarray(from, to), this.size)
    this.offsets[id] = this.size
    this.lengths[id] = length
    if (quoted) this.quoted.add(id)
    this.size += length
    return id
  }

  /** Points the ASN's slot at this name (the latest name seen for it). */
  private remember(asn: number, id: number, hash: number, length: number): void {
    if (this.used * 8 >= this.slots.length) this.rehash()
    const slots = this.slots
    const mask = (slots.length >>> 2) - 1
    let slot = Math.imul(asn, 0x9e3779b1) & mask
    while (slots[(slot << 2) + 1] !== 0 && slots[slot << 2] !== asn) slot = (slot + 1) & mask
    const at = slot << 2
    if (slots[at + 1] === 0) this.used++
    slots[at] = asn
    slots[at + 1] = id + 1
    slots[at + 2] = hash
    slots[at + 3] = length
  }

  private rehash(): void {
    const old = this.slots
    this.slots = new Uint32Array(old.length * 2)
    this.used = 0
    for (let at = 0; at < old.length; at += 4) {
      if (old[at + 1] !== 0) this.remember(old[at] as number, (old[at + 1] as number) - 1, old[at + 2] as number, old[at + 3] as number)
    }
  }

  /** The names for lookups; the load-time index is dropped. */
  seal(): OrgNames {
    const names = new OrgNames(Buffer.from(this.bytes.subarray(0, this.size)), this.offsets.slice(0, this.count), this.lengths.slice(0, this.count), this.quoted)
    this.slots = new Uint32Array(0)
    return names
  }
}

/** Organisation names by id, decoded from UTF-8 on first use and then kept. */
export class OrgNames {
  private readonly decoded: Array<string | undefined>

  constructor(
    private readonly bytes: Buffer,
    private readonly offsets: Uint32Array,
    private readonly lengths: Uint32Array,
    private readonly quoted: ReadonlySet<number>,
  ) {
    this.decoded = new Array<string | undefined>(offsets.length).fill(undefined)
  }

  get count(): number {
    return this.offsets.length
  }

  /** Bytes of the stored (not yet decoded) names and their index. */
  get byteLength(): number {
    return this.bytes.byteLength + this.offsets.byteLength + this.lengths.byteLength
  }

  get(id: number): string {
    return this.decoded[id] ?? this.decode(id)
  }

  private decode(id: number): string {
    const from = this.offsets[id] as number
    let name = this.bytes.toString('utf8', from, from + (this.lengths[id] as number))
    if (this.quoted.has(id)) name = name.replaceAll('""', '"')
    this.decoded[id] = name
    return name
  }
}

function grow(a: Uint32Array): Uint32Array {
  const b = new Uint32Array(a.length * 2)
  b.set(a)
  return b
}
