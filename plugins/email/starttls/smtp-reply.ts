import type { Socket } from 'node:net'

// Reading SMTP replies (RFC 5321 §4.2): "250-..." lines continue a reply, "250 ..."
// ends it. Enough of a client for a probe: greeting, EHLO, STARTTLS, QUIT. A reader
// is bound to one socket; after STARTTLS the TLS socket gets a new one.

export interface SmtpReply {
  code: number
  lines: string[]
}

const MAX_REPLY_BYTES = 64 * 1024

export class SmtpReader {
  private buffer = ''
  private lines: string[] = []
  private waiting: { resolve: (r: SmtpReply) => void; reject: (e: Error) => void } | null = null
  private failure: Error | null = null
  private readonly onData = (chunk: Buffer) => this.push(chunk.toString('latin1'))
  private readonly onEnd = () => this.fail(new Error('the server closed the connection'))
  private readonly onError = (error: Error) => this.fail(error)

  constructor(private readonly socket: Socket) {
    socket.on('data', this.onData)
    socket.on('end', this.onEnd)
    socket.on('close', this.onEnd)
    socket.on('error', this.onError)
  }

  /** Stops reading (before the socket is handed to TLS). */
  detach(): void {
    this.socket.off('data', this.onData)
    this.socket.off('end', this.onEnd)
    this.socket.off('close', this.onEnd)
    this.socket.off('error', this.onError)
  }

  private fail(error: Error): void {
    this.failure ??= error
    const waiting = this.waiting
    this.waiting = null
    waiting?.reject(this.failure)
  }

  private push(text: string): void {
    this.buffer += text
    if (this.buffer.length > MAX_REPLY_BYTES) return this.fail(new Error('the server sent an over-long reply'))
    let newline: number
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '')
      this.buffer = this.buffer.slice(newline + 1)
      this.lines.push(line)
      if (/^\d{3}(?: |$)/.test(line)) this.deliver()
      else if (!/^\d{3}-/.test(line)) return this.fail(new Error(`not an SMTP reply: ${JSON.stringify(line.slice(0, 80))}`))
    }
  }

  private ready: SmtpReply[] = []

  private deliver(): void {
    const lines = this.lines
    this.lines = []
    const reply = { code: Number(lines.at(-1)!.slice(0, 3)), lines: lines.map((l) => l.slice(4)) }
    if (this.waiting) {
      const waiting = this.waiting
      this.waiting = null
      waiting.resolve(reply)
    } else this.ready.push(reply)
  }

  read(signal: AbortSignal): Promise<SmtpReply> {
    const next = this.ready.shift()
    if (next) return Promise.resolve(next)
    if (this.failure) return Promise.reject(this.failure)
    if (signal.aborted) return Promise.reject(new Error('timed out waiting for the server'))
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting = null
        reject(new Error('timed out waiting for the server'))
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.waiting = {
        resolve: (r) => {
          signal.removeEventListener('abort', onAbort)
          resolve(r)
        },
        reject: (e) => {
          signal.removeEventListener('abort', onAbort)
          reject(e)
        },
      }
    })
  }

  async command(line: string, signal: AbortSignal): Promise<SmtpReply> {
    this.socket.write(`${line}\r\n`)
    return this.read(signal)
  }
}
