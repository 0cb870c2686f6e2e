/** Collects a response body up to a limit; past it, says stop (the rest is never read). */
export class BodyReader {
  private readonly chunks: Buffer[] = []
  private size = 0
  truncated = false

  constructor(private readonly maxBytes: number) {}

  /** false once the limit is reached: the caller closes the stream. */
  push(chunk: Buffer): boolean {
    const room = this.maxBytes - this.size
    if (chunk.length > room) {
      if (room > 0) this.chunks.push(chunk.subarray(0, room))
      this.size = this.maxBytes
      this.truncated = true
      return false
    }
    this.chunks.push(chunk)
    this.size += chunk.length
    return true
  }

  body(): Buffer {
    return Buffer.concat(this.chunks, this.size)
  }
}
