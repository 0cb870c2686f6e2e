import type { Dial } from './probe.ts'

// What the scans beside the cipher scan (groups, signature schemes, the active
// checks) share with it: the vetted dial (STARTTLS included), SNI, the request's
// cancellation, the probe deadline and the one pool every connection of an
// analysis goes through, so the connections held open on a target never exceed
// the pool however many scans run at once (settings.ts).

export type Pooled = <T>(task: () => Promise<T>) => Promise<T>

export interface ProbeContext {
  dial: Dial
  serverName: string | null
  signal: AbortSignal
  /** One ClientHello/ServerHello exchange. */
  timeoutMs: number
  /** A full handshake (node:tls: renegotiation, resumption). */
  handshakeTimeoutMs: number
  pooled: Pooled
  /** Counts a connection opened (the answer's `probes`). */
  opened(): void
}

/** The pool, counting each connection as it starts. */
export function pooledProbe<T>(ctx: ProbeContext, task: () => Promise<T>): Promise<T> {
  return ctx.pooled(() => {
    ctx.signal.throwIfAborted()
    ctx.opened()
    return task()
  })
}
