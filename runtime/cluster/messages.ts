// What the primary and its workers say to each other over the cluster's IPC
// channel (node:cluster, JSON serialization). Every message of ours carries `il`,
// its kind, so it is never mistaken for Node's own cluster messages or another
// library's.

/** Worker -> primary. */
export type WorkerMessage =
  /** Sent once the worker listens for our messages (one sent before would be lost): asks for its hello. */
  | { il: 'connect' }
  /** Start-up done: this worker serves HTTP. */
  | { il: 'listening'; url: string; endpoints: number }
  /** Start-up failed (bad keys file, ...): the primary reports it once and stops. */
  | { il: 'failed'; message: string }
  /** Sent as an uncaught exception takes the worker down: the cause the primary logs with its death. */
  | { il: 'fatal'; cause: string }
  /** Fixed-window counters owned by the primary (shared-windows.ts): created once, by name. */
  | { il: 'define'; name: string; points: number; durationSeconds: number }
  /** A batch of counter operations: [name, key, points] triples, points 0 = read. */
  | { il: 'windows'; id: number; ops: Array<string | number> }
  /** Ask every worker `topic` (readiness, metrics) and send back what they said. */
  | { il: 'gather'; id: number; topic: string; timeoutMs: number }
  /** This worker's answer to the primary's `ask`. */
  | { il: 'told'; id: number; value?: unknown; error?: string }
  /** The service's own facts (start time, workers, restarts). */
  | { il: 'status'; id: number }

/** Primary -> worker. */
export type PrimaryMessage =
  /** The answer to `connect`: which slot the worker fills, of how many. */
  | { il: 'hello'; slot: number; size: number }
  /** Results of a `windows` batch, three numbers per operation: consumed (-1: no window), ms before the window ends, refused (1/0). */
  | { il: 'windows'; id: number; res: number[] }
  | { il: 'ask'; id: number; topic: string }
  | { il: 'gathered'; id: number; gathered: Gathered<unknown> }
  | { il: 'status'; id: number; status: ServiceStatus }
  /** Sent with a connection's socket as the handle: serve it. */
  | { il: 'conn' }

/** What every worker said about one topic. */
export interface Gathered<T> {
  /** Workers the service runs when whole (INFRALENS_WORKERS). */
  expected: number
  answers: Array<{ worker: number; pid: number; value: T }>
  /** Slots with no answer: not started yet, restarting, timed out, or failed to answer. */
  missing: Array<{ worker: number; reason: string }>
}

/** The service as a whole, as the primary sees it. */
export interface ServiceStatus {
  /** When the primary started (ms since the epoch, on its clock). */
  startedAt: number
  /** Workers the service runs when whole, and how many serve HTTP now. */
  workers: { expected: number; listening: number }
  /** Workers replaced after dying, since start. */
  restarts: number
}

export function isOurs(message: unknown): message is { il: string } {
  return typeof message === 'object' && message !== null && typeof (message as { il?: unknown }).il === 'string'
}
