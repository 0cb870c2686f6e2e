// An answer that can go out item by item (descriptor `stream`): a batch whose
// items finish one after another, a bulk lookup of 100,000 addresses. The
// resolver returns a Streamed instead of data; the pipeline either lets it run
// to the end and answers with the data it returns, or, when the request asks
// for NDJSON, sends every item as one line the moment it is emitted
// (runtime/http/ndjson.ts).

/**
 * Hands one finished item to the reader. Returns a promise when the reader is
 * behind (the stream's buffer is full): a producer awaits it before it makes
 * more, so a slow client holds the work back instead of piling it up in memory.
 */
export type Emit = ((item: unknown) => Promise<void> | undefined) & {
  /**
   * Present only when every item goes out as its plain JSON text (no fields= to
   * shape it): lines a producer wrote as bytes itself, each one item's JSON
   * followed by "\n", after the items emitted so far. A producer that writes its
   * items' JSON faster than JSON.stringify of objects (the bulk IP lookup) hands
   * them over here; the return value means what emit's does.
   */
  readonly lines?: (chunks: readonly Uint8Array[]) => Promise<void> | undefined
}

/**
 * `emit` is undefined when nobody streams: the producer then returns the whole
 * data (its items in order). When streaming, the items went out through `emit`
 * and what it returns is not used: it may return undefined (and skip collecting
 * them). `signal` aborts when the client goes away or the stream is cancelled.
 */
export type Produce<D> = (emit: Emit | undefined, signal: AbortSignal) => Promise<D | undefined>

export class Streamed<D = unknown> {
  constructor(readonly produce: Produce<D>) {}

  /** The whole data: the producer run to the end with nobody streaming. */
  async whole(signal: AbortSignal): Promise<D> {
    const data = await this.produce(undefined, signal)
    if (data === undefined) throw new Error('a streamed answer returned no data when nothing was streamed')
    return data
  }
}

export function streamed<D>(produce: Produce<D>): Streamed<D> {
  return new Streamed(produce)
}
