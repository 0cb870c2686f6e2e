/**
 * AS organisation names, each stored once. The CSVs repeat a name on every range
 * of its AS (412k IPv4 rows, 75k distinct names), so rows keep a small id and
 * decoding text is paid once per distinct (ASN, name) pair, not once per row.
 *
 * The fast path trusts the byte hash: an ASN seen before with a name of the same
 * length and FNV-1a hash reuses the earlier id without decoding the bytes. In the
 * packaged data an ASN always has one name, so this is the path 99% of rows take;
 * a different name for the same ASN (hash or length differs) is decoded and
 * interned on its own, so nothing is lost if a future file breaks that pattern.
 */
export class OrgTable {
  readonly names: string[] = []
  readonly #ids = new Map<string, number>()
  /** Last name id seen per ASN, with that name's hash and byte length. */
  readonly #byAsn = new Map<number, number>()
  #hashes: number[] = []
  #lengths: number[] = []

  /** Id of the name in bytes [from, to) of buf (already unquoted if `quoted` is false). */
  intern(asn: number, buf: Uint8Array, from: number, to: number, hash: number, quoted: boolean): number {
    const known = this.#byAsn.get(asn)
    if (known !== undefined && this.#hashes[known] === hash && this.#lengths[known] === to - from) return known
    let name = Buffer.from(buf.buffer, buf.byteOffset + from, to - from).toString('utf8')
    if (quoted) name = name.replaceAll('""', '"')
    let id = this.#ids.get(name)
    if (id === undefined) {
      id = this.names.length
      this.names.push(name)
      this.#ids.set(name, id)
      this.#hashes.push(hash)
      this.#lengths.push(to - from)
    }
    this.#byAsn.set(asn, id)
    return id
  }

  /** Drops the load-time indexes; only `names` is needed for lookups. */
  seal(): readonly string[] {
    this.#ids.clear()
    this.#byAsn.clear()
    this.#hashes = []
    this.#lengths = []
    return this.names
  }
}
