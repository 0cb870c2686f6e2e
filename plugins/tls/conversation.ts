import type { Socket } from 'node:net'
import { deadline as withDeadline } from '../../runtime/net/child-signals.ts'
import type { Dial } from './probe.ts'
import { FlightReader } from './server-flight.ts'

// A scripted exchange with a server for the active checks (checks/): send some
// records, wait until what the server sent back answers the question (or it
// hangs up, or a short wait passes), maybe send more, hang up. Everything read
// goes through a FlightReader, which bounds how much a server can make us hold
// (MAX_FLIGHT_BYTES); the whole conversation has one deadline.

export type WaitOutcome = 'met' | 'closed' | 'timeout'

export interface Conversation {
  reader: FlightReader
  /** How the server ended the connection, if it did: a FIN, a reset, or another socket error. */
  endedBy(): 'fin' | 'reset' | 'error' | null
  send(bytes: Buffer): void
  /**
   * Until `met(reader)` holds, the server closes or resets the connection, or
   * `waitMs` passes (never past the conversation's deadline). A record the
   * reader cannot parse counts as closed: nothing after it can be read.
   */
  wait(met: (reader: FlightReader) => boolean, waitMs: number): Promise<WaitOutcome>
  close(): void
}

/** Opens a conversation on a fresh vetted connection (STARTTLS done, if asked for, by `dial`). Throws as `dial` does. */
export async function converse(dial: Dial, signal: AbortSignal, timeoutMs: number): Promise<Conversation> {
  const limit = withDeadline(signal, timeoutMs)
  let socket: Socket
  try {
    socket = await dial(limit.signal)
  } catch (error) {
    limit.clear()
    throw error
  }
  const reader = new FlightReader()
  let ended = false
  let endedBy: 'fin' | 'reset' | 'error' | null = null
  let wake: (() => void) | null = null
  const poke = () => wake?.()
  socket.on('data', (chunk: Buffer) => {
    reader.push(chunk)
    poke()
  })
  const onEnd = () => {
    ended = true
    poke()
  }
  socket.once('end', () => {
    endedBy ??= 'fin'
    onEnd()
  })
  socket.once('close', onEnd)
  socket.on('error', (error: NodeJS.ErrnoException) => {
    endedBy ??= error.code === 'ECONNRESET' || error.code === 'EPIPE' ? 'reset' : 'error'
    onEnd()
  })
  limit.signal.addEventListener('abort', onEnd, { once: true })
  return {
    reader,
    endedBy: () => endedBy,
    send(bytes) {
      if (!ended && !socket.destroyed) socket.write(bytes)
    },
    wait(met, waitMs) {
      return new Promise((resolve) => {
        let timer: NodeJS.Timeout | null = null
        const check = () => {
          if (met(reader)) return settle('met')
          if (ended || reader.malformed || reader.notTls) return settle(limit.signal.aborted && !socket.destroyed ? 'timeout' : 'closed')
        }
        const settle = (outcome: WaitOutcome) => {
          if (timer) clearTimeout(timer)
          wake = null
          resolve(outcome)
        }
        wake = check
        timer = setTimeout(() => settle('timeout'), waitMs)
        check()
      })
    },
    close() {
      limit.clear()
      limit.signal.removeEventListener('abort', onEnd)
      socket.destroy()
    },
  }
}

/** A TLS record: content type, version, payload. */
export function tlsRecord(type: number, version: number, payload: Buffer): Buffer {
  const header = Buffer.from([type, version >> 8, version & 0xff, payload.length >> 8, payload.length & 0xff])
  return Buffer.concat([header, payload])
}
