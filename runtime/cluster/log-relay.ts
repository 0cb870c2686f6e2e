import type { Readable, Writable } from 'node:stream'

// Every worker's log (its stdout: JSON lines, access lines in 16 KiB batches)
// comes to the primary through a pipe of its own and leaves on the primary's
// stdout whole lines at a time. Workers writing straight to one shared stdout
// could tear lines: on a pipe (a container runtime, systemd) only writes of at
// most PIPE_BUF (4 KiB) are atomic, and a batch, or a partial write of one, may
// interleave with another worker's. Here each line is written by one writer, in
// one piece. What a worker leaves unfinished when it exits is ended with a newline.

export interface LogRelay {
  /** Relays `stream` (a worker's stdout) until it ends. */
  add(stream: Readable): void
  /** A line of the primary's own (already newline-terminated). */
  write(text: string): void
}

export function createLogRelay(out: Writable): LogRelay {
  const sources = new Set<Readable>()
  let blocked = false
  const emit = (chunk: Buffer | string): void => {
    if (out.write(chunk) || blocked) return
    // The reader of our stdout is slower than the workers: hold them (their pipes
    // fill, their loggers buffer) until it catches up.
    blocked = true
    for (const s of sources) s.pause()
    out.once('drain', () => {
      blocked = false
      for (const s of sources) s.resume()
    })
  }
  return {
    add(stream) {
      sources.add(stream)
      let rest: Buffer | undefined
      stream.on('data', (chunk: Buffer) => {
        const end = chunk.lastIndexOf(10)
        if (end < 0) {
          rest = rest ? Buffer.concat([rest, chunk]) : chunk
          return
        }
        const whole = chunk.subarray(0, end + 1)
        emit(rest ? Buffer.concat([rest, whole]) : whole)
        rest = end + 1 < chunk.length ? chunk.subarray(end + 1) : undefined
      })
      stream.once('close', () => {
        sources.delete(stream)
        if (rest?.length) emit(Buffer.concat([rest, Buffer.from('\n')]))
        rest = undefined
      })
      if (blocked) stream.pause()
    },
    write: (text) => emit(text),
  }
}
