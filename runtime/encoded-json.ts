// A part of an answer already written as JSON bytes (descriptor `preEncoded`):
// a list of 100,000 bulk lookups written by its resolver straight from the
// lookups, with no object per item and no JSON.stringify of the whole (which
// alone took ~140 ms for 16 MB, bench/RESULTS-network.md, "ip/bulk"). The json
// format splices the bytes into the envelope as they are; anything that needs
// the value itself (shaping controls, other formats, pretty JSON, a cache that
// serializes) gets it decoded, so every answer is the one the objects would give.

export class EncodedJson {
  #decoded: unknown
  #done = false

  /** `chunks`: the UTF-8 bytes of one JSON value, in order. */
  constructor(
    readonly chunks: readonly Uint8Array[],
    readonly byteLength: number,
  ) {}

  /** The value the bytes hold (parsed once). */
  decode(): unknown {
    if (!this.#done) {
      this.#decoded = JSON.parse(Buffer.concat(this.chunks as Uint8Array[], this.byteLength).toString('utf8'))
      this.#done = true
    }
    return this.#decoded
  }

  /** JSON.stringify anywhere (a Redis cache entry, a log line) writes the value itself. */
  toJSON(): unknown {
    return this.decode()
  }
}

/**
 * `data` with the EncodedJson at its top-level `key` decoded: what shaping and the
 * formats that walk values need. The object is copied, never changed in place.
 */
export function decodedAt(data: unknown, key: string): unknown {
  if (typeof data !== 'object' || data === null) return data
  const held = (data as Record<string, unknown>)[key]
  if (!(held instanceof EncodedJson)) return data
  return { ...(data as Record<string, unknown>), [key]: held.decode() }
}

/** Whether `data` holds an EncodedJson at its top-level `key`. */
export function holdsEncoded(data: unknown, key: string): boolean {
  return typeof data === 'object' && data !== null && (data as Record<string, unknown>)[key] instanceof EncodedJson
}
