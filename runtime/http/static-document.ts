import { promisify } from 'node:util'
import type { BrotliOptions, ZlibOptions } from 'node:zlib'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Coding } from './content-coding.ts'
import { strongTag } from './entity-tag.ts'

// A document that is the same bytes for every request (an envelope-less answer of
// a cached endpoint: the OpenAPI document, 1.5 MB; the docs page; the 3.5 MB docs
// bundle): rendered, tagged and compressed once, then served from here.
//
// Compressed asynchronously, in libuv's thread pool rather than on the event loop,
// at high levels since it happens once: gzip 9 and brotli quality 9. Brotli's 11
// would save another ~10% but takes 8.4 s for the docs bundle (0.85 s at 9, 0.14 s
// for gzip 9; measured), which its first reader would wait for. Requests that
// arrive while a coding is being made wait for that one promise.

/** Bytes a response can carry (zlib hands back Buffers on plain ArrayBuffers). */
type Bytes = Uint8Array<ArrayBuffer>
const gzipAsync = promisify(gzip) as (input: Uint8Array, options: ZlibOptions) => Promise<Bytes>
const brotliAsync = promisify(brotliCompress) as (input: Uint8Array, options: BrotliOptions) => Promise<Bytes>

export const STATIC_GZIP_LEVEL = 9
export const STATIC_BROTLI_QUALITY = 9

export class StaticDocument {
  readonly bytes: Bytes
  readonly #tag: string
  readonly #coded = new Map<'br' | 'gzip', Bytes | Promise<Bytes>>()

  constructor(
    body: string,
    readonly contentType: string,
  ) {
    this.bytes = new TextEncoder().encode(body) as Bytes
    this.#tag = strongTag(this.bytes)
  }

  /**
   * The strong tag of the document in a coding. Strong tags name exact bytes, so
   * each coding has its own (`"…-gzip"`, Apache's convention); If-None-Match is
   * compared with the one of the coding being answered (RFC 9110 §8.8.3.3).
   */
  tag(coding: Coding): string {
    return coding === 'identity' ? this.#tag : `${this.#tag.slice(0, -1)}-${coding}"`
  }

  /** The document's bytes in a coding: at once when made already, else the (shared) promise. */
  body(coding: Coding): Bytes | Promise<Bytes> {
    if (coding === 'identity') return this.bytes
    let coded = this.#coded.get(coding)
    if (coded === undefined) {
      const making =
        coding === 'gzip'
          ? gzipAsync(this.bytes, { level: STATIC_GZIP_LEVEL })
          : brotliAsync(this.bytes, {
              params: { [constants.BROTLI_PARAM_QUALITY]: STATIC_BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: this.bytes.byteLength },
            })
      coded = making.then(
        (done) => {
          this.#coded.set(coding, done)
          return done
        },
        (error: unknown) => {
          // A failed attempt is not kept: the next request tries again.
          this.#coded.delete(coding)
          throw error
        },
      )
      this.#coded.set(coding, coded)
    }
    return coded
  }
}

/**
 * The documents of one endpoint, by the data they were rendered from and the
 * representation (format, pretty): a request with the same data object (the
 * cache's, or a resolver's memo) takes the rendered document without rendering
 * again. When the data object is new but its bytes are not (a shared cache's
 * copy), the bytes' tag finds the document, and its codings, made before.
 */
export class StaticDocuments {
  #data: unknown
  #byRepresentation = new Map<string, StaticDocument>()
  #byTag = new Map<string, StaticDocument>()

  get(data: unknown, representation: string, render: () => { body: string; contentType: string }): StaticDocument {
    if (data !== this.#data) {
      this.#data = data
      this.#byRepresentation.clear()
    }
    let doc = this.#byRepresentation.get(representation)
    if (doc === undefined) {
      const { body, contentType } = render()
      const fresh = new StaticDocument(body, contentType)
      const key = `${contentType}\n${fresh.tag('identity')}`
      doc = this.#byTag.get(key)
      if (doc === undefined) {
        doc = fresh
        // A handful of representations (format x pretty) per endpoint; a changed
        // document replaces the old ones rather than piling up beside them.
        if (this.#byTag.size >= 16) this.#byTag.clear()
        this.#byTag.set(key, doc)
      }
      this.#byRepresentation.set(representation, doc)
    }
    return doc
  }
}
