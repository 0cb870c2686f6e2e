import type { Caller } from '../call.ts'
import type { WireError } from './error-wire.ts'

// What crosses to a worker and back for one offloaded request. Only data: the
// body as bytes (transferred, not copied), and the answer as bytes.

export interface OffloadTask {
  /** Descriptor name of the endpoint. */
  endpoint: string
  method: string
  /** The request URL, query included: the worker reads the controls and query params from it. */
  url: string
  /** Route params as the router matched them (still percent-encoded). */
  params: Record<string, string> | undefined
  /** The request headers, as pairs. */
  headers: Array<[string, string]>
  body: Uint8Array<ArrayBuffer> | null
  /** As auth decided on the main thread (tier, key, rate-limit state). */
  caller: Caller
  requestId: string
  /** The app clock's now at dispatch, ms: the worker's clock for this request. */
  now: number
}

export type OffloadResult =
  | { ok: true; status: number; headers: Record<string, string>; body: Uint8Array<ArrayBuffer> | null }
  | { ok: false; error: WireError }

/** What the workers are started with (workerData). */
export interface CpuWorkerData {
  /** The environment the app's config was read from. */
  env: Record<string, string | undefined>
  registryDirs: string[]
  /** file: URLs of the plugins' work modules (api.work). */
  workModules: string[]
}
