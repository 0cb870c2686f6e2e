import type { Call } from '../call.ts'
import type { AnyEndpoint } from '../define-endpoint.ts'
import { readBodyBytes } from '../input.ts'
import type { CpuPool } from './cpu-pool.ts'
import { fromWire } from './error-wire.ts'
import type { OffloadTask } from './task.ts'

// The main thread's side of an offloaded request (descriptor `offload: true`):
// after auth and rate limit, it reads the body as bytes and hands the request to
// the CPU pool, which decodes, validates, resolves and renders it. What comes back
// is the rendered answer, or the typed error the worker's pipeline threw.

/** An answer a worker already rendered: the pipeline sends it as it is. */
export class Rendered {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: Uint8Array<ArrayBuffer> | null,
  ) {}
}

export type Offloaded = (call: Call, url: URL, params: Record<string, string> | undefined) => Promise<Rendered>

/** `now`: the app clock's milliseconds, which the worker's pipeline uses as its own. */
export function defineOffload(endpoint: AnyEndpoint, pool: CpuPool, now: () => number): Offloaded {
  const maxBytes = endpoint.body?.maxBytes
  return async (call, url, params) => {
    const request = call.request
    // The one part of the body's journey left here: collecting bytes off the socket.
    const body = maxBytes === undefined ? null : await readBodyBytes(request, maxBytes)
    const task: OffloadTask = {
      endpoint: endpoint.name,
      method: request.method,
      url: url.href,
      params,
      headers: [...request.headers],
      body,
      caller: call.caller,
      requestId: call.requestId,
      now: now(),
    }
    const result = await pool.run(task, request.signal)
    if (!result.ok) throw fromWire(result.error)
    return new Rendered(result.status, result.headers, result.body)
  }
}
