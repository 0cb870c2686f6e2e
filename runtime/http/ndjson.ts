import type { BrotliCompress, Gzip } from 'node:zlib'
import { constants, createBrotliCompress, createGzip } from 'node:zlib'
import { FastResponse } from 'srvx'
import type { Emit, Produce } from '../streamed.ts'
import { DYNAMIC_BROTLI_QUALITY, DYNAMIC_GZIP_LEVEL, addVary, negotiate } from './content-coding.ts'

// NDJSON (one JSON text per line, https://github.com/ndjson/ndjson-spec): the
// answer of an endpoint that streams (descriptor `stream`), one line per item as
// soon as its producer emits it (runtime/streamed.ts).
//
// Lines emitted in one turn of the event loop go out as one chunk (a bulk
// producer emits thousands in a row), lines emitted apart go out apart (a batch
// item finishing). Compression (gzip or br by Accept-Encoding, as every answer)
// runs as a stream here, flushed after each chunk, so a line reaches the client
// when it is written instead of when the compressor's window fills; the flush
// costs a few bytes per chunk. The stream's queue holds HIGH_WATER bytes; past
// that, emit() hands the producer a promise to wait on, so a slow reader holds
// the work back instead of it piling up in memory.

export const NDJSON_TYPE = 'application/x-ndjson'

/** Bytes the stream may hold for a slow reader before the producer is asked to wait. */
const HIGH_WATER = 256 * 1024
/** Characters gathered before a chunk is cut even within one turn (bounds a chunk's size). */
const CHUNK_CHARS = 64 * 1024

/** Whether an Accept header lists application/x-ndjson with a weight above 0. */
export function acceptsNdjson(accept: string | null): boolean {
  if (accept === null || !/ndjson/i.test(accept)) return false
  for (const entry of accept.split(',')) {
    const [type = '', ...params] = entry.split(';')
    if (type.trim().toLowerCase() !== NDJSON_TYPE) continue
    let q = 1
    for (const param of params) {
      const eq = param.indexOf('=')
      if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue
      const text = param.slice(eq + 1).trim()
      // RFC 9110 §12.4.2; a malformed weight leaves the entry out.
      q = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(text) ? Number(text) : 0
    }
    if (q > 0) return true
  }
  return false
}

export interface NdjsonOptions {
  /** Response headers so far (request id, rate limit, CORS); content type and coding are set here. */
  headers: Record<string, string>
  /** A request header (Accept-Encoding). */
  header: (name: string) => string | null
  produce: Produce<unknown>
  /** One item's JSON text (shaping applied), without the newline. */
  line: (item: unknown) => string
  /** Whether `line` is the item's plain JSON (no shaping): producers may then emit lines as bytes (Emit.lines). */
  plain?: boolean
  /** The last line when the producer fails once the answer has begun (the status is sent already). */
  failure: (thrown: unknown) => string
  /** Aborts when the client goes away. */
  signal: AbortSignal
  /** Called once when the answer ended, completely or not. */
  done?: (outcome: 'complete' | 'failed' | 'cancelled') => void
}

export function ndjsonResponse(options: NdjsonOptions): Response {
  const { headers } = options
  headers['content-type'] = `${NDJSON_TYPE}; charset=utf-8`
  // The length is not known in advance: whatever the client accepts, as for any large answer.
  addVary(headers, 'Accept-Encoding')
  const coding = negotiate(options.header('accept-encoding'))
  if (coding !== 'identity') headers['content-encoding'] = coding
  const zip: Gzip | BrotliCompress | undefined =
    coding === 'gzip'
      ? createGzip({ level: DYNAMIC_GZIP_LEVEL })
      : coding === 'br'
        ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } })
        : undefined
  const flushKind = coding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH

  const cancelled = new AbortController()
  const signal = AbortSignal.any([options.signal, cancelled.signal])
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let open = true
  let pending = ''
  let scheduled = false
  let waiting: Promise<void> | undefined
  let wake: (() => void) | undefined
  let ended = false

  const end = (outcome: 'complete' | 'failed' | 'cancelled'): void => {
    if (ended) return
    ended = true
    options.done?.(outcome)
  }
  const enqueue = (bytes: Uint8Array): void => {
    if (!open) return
    try {
      controller.enqueue(bytes)
    } catch {
      // The reader is gone (cancelled between our check and the enqueue).
      open = false
    }
  }
  zip?.on('data', (chunk: Buffer) => enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)))
  zip?.on('error', () => {
    open = false
  })

  const flush = (): void => {
    scheduled = false
    if (pending === '' || !open) return
    const bytes = Buffer.from(pending)
    pending = ''
    if (zip) {
      zip.write(bytes)
      zip.flush(flushKind)
    } else {
      enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    }
  }
  const behind = (): boolean => (controller.desiredSize ?? 0) <= 0 || (zip !== undefined && zip.writableLength > HIGH_WATER)
  const release = (): void => {
    const w = wake
    wake = undefined
    waiting = undefined
    w?.()
  }

  const backpressure = (): Promise<void> | undefined => {
    if (!behind()) return undefined
    return (waiting ??= new Promise<void>((resolve) => (wake = resolve)))
  }
  const emitItem = (item: unknown): Promise<void> | undefined => {
    if (!open) return undefined
    pending += `${options.line(item)}\n`
    if (pending.length >= CHUNK_CHARS) flush()
    else if (!scheduled) {
      scheduled = true
      queueMicrotask(flush)
    }
    return backpressure()
  }
  /** Lines written as bytes by the producer: after what is pending, in chunks of at most CHUNK_CHARS bytes. */
  const emitLines = (chunks: readonly Uint8Array[]): Promise<void> | undefined => {
    if (!open) return undefined
    flush()
    for (const chunk of chunks) {
      for (let at = 0; at < chunk.byteLength; at += CHUNK_CHARS) {
        const piece = chunk.subarray(at, Math.min(chunk.byteLength, at + CHUNK_CHARS))
        if (zip) zip.write(piece)
        else enqueue(piece)
      }
    }
    zip?.flush(flushKind)
    return backpressure()
  }
  const emit: Emit = options.plain ? Object.assign(emitItem, { lines: emitLines }) : emitItem

  const close = (outcome: 'complete' | 'failed'): void => {
    flush()
    if (!open) return end('cancelled')
    if (zip) {
      zip.once('end', () => {
        if (open) controller.close()
        open = false
        end(outcome)
      })
      zip.end()
    } else {
      controller.close()
      open = false
      end(outcome)
    }
  }

  const run = async (): Promise<void> => {
    try {
      await options.produce(emit, signal)
    } catch (thrown) {
      if (!open || signal.aborted) return close('failed')
      flush()
      pending = `${options.failure(thrown)}\n`
      return close('failed')
    }
    close('complete')
  }

  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c
        // After the handler has returned the response: the headers go out before the first item is made.
        setImmediate(() => void run())
      },
      pull() {
        release()
      },
      cancel() {
        open = false
        cancelled.abort(new Error('the client stopped reading the stream'))
        release()
        zip?.destroy()
        end('cancelled')
      },
    },
    { highWaterMark: HIGH_WATER, size: (chunk) => chunk.byteLength },
  )
  return new FastResponse(body, { status: 200, statusText: 'OK', headers })
}
