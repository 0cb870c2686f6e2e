import type { Socket } from 'node:net'

// Reading a plaintext protocol's replies before STARTTLS: bytes collect until a
// reply is complete (the caller's `complete` says how long it is), bounded in
// size, and the reader lets go of the socket once the server said "go ahead",
// so the next byte the server sends — its TLS answer — reaches the TLS code.

export const MAX_REPLY_BYTES = 64 * 1024

export class PlainReader {
  private buffer = Buffer.alloc(0)
  private failure: Error | null = null
  private wake: (() => void) | null = null
  private readonly onData = (chunk: Buffer) => {
    this.buffer = Buffer.concat([this.buffer, chunk])
    if (this.buffer.length > MAX_REPLY_BYTES) this.fail(new Error(`the server sent more than ${MAX_REPLY_BYTES} bytes before TLS`))
    this.wake?.()
  }
  private readonly onEnd = () => this.fail(new Error('the server closed the connection'))
  private readonly onError = (error: Error) => this.fail(error)

  constructor(private readonly socket: Socket) {
    socket.on('data', this.onData)
    socket.on('end', this.onEnd)
    socket.on('close', this.onEnd)
    socket.on('error', this.onError)
  }

  private fail(error: Error): void {
    this.failure ??= error
    this.wake?.()
  }

  /**
   * The next reply: `complete(buffer)` returns its length once the buffer holds
   * a whole one (null until then). Rejects on close, overflow or `signal`.
   */
  read(complete: (buffer: Buffer) => number | null, signal: AbortSignal): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const onAbort = () => finish(new Error('timed out waiting for the server'))
      const finish = (error: Error | null, reply?: Buffer) => {
        this.wake = null
        signal.removeEventListener('abort', onAbort)
        if (error) reject(error)
        else resolve(reply!)
      }
      const check = () => {
        const length = complete(this.buffer)
        if (length !== null) {
          const reply = this.buffer.subarray(0, length)
          this.buffer = this.buffer.subarray(length)
          return finish(null, reply)
        }
        if (this.failure) return finish(this.failure)
        if (signal.aborted) return finish(new Error('timed out waiting for the server'))
      }
      this.wake = check
      signal.addEventListener('abort', onAbort, { once: true })
      check()
    })
  }

  write(data: string | Buffer): void {
    this.socket.write(data)
  }

  /**
   * Hands the socket on. Not paused: the caller attaches its listeners in the
   * same chain of promise callbacks, before any I/O callback can deliver data,
   * and an explicitly paused socket would stay paused under a 'data' listener.
   * Whatever the server sent after its go-ahead is dropped with this reader:
   * bytes before our ClientHello are an injection (CVE-2011-0411), not TLS.
   */
  detach(): void {
    this.socket.off('data', this.onData)
    this.socket.off('end', this.onEnd)
    this.socket.off('close', this.onEnd)
    this.socket.off('error', this.onError)
  }
}

/** A reply of CRLF-terminated lines that ends with the first line `last` accepts. */
export function linesUntil(last: (line: string) => boolean): (buffer: Buffer) => number | null {
  return (buffer) => {
    let start = 0
    for (let nl = buffer.indexOf(10); nl >= 0; nl = buffer.indexOf(10, start)) {
      const line = buffer.subarray(start, nl).toString('latin1').replace(/\r$/, '')
      start = nl + 1
      if (last(line)) return start
    }
    return null
  }
}
