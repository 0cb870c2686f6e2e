import type { Logger } from 'pino'
import type { z } from 'zod'
import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'
import type { InvokeOptions, Invoked } from '../../runtime/define-plugin.ts'
import { ApiError, ClientClosedError, DeadlineError, InternalError } from '../../runtime/errors.ts'
import type { Emit } from '../../runtime/streamed.ts'
import type { BatchResult } from '../../registry/meta/schemas/batch-data.ts'
import type { Plan, PlannedItem } from './plan.ts'

// Runs a planned batch: each item through ctx.invoke (the endpoint's own
// validation, cache entry and coalescing; no auth or rate limit, the batch paid),
// at most `inFlight` at once and at most `perTarget` at once on one target, all
// under one deadline. Items start in order; one whose target is busy waits while
// later ones on other targets go ahead. Each result is emitted the moment it is
// known (NDJSON), and collected in order for the whole answer.

export type ItemResult = z.input<typeof BatchResult>

export interface BatchBounds {
  /** Requests of one batch running at once. */
  inFlight: number
  /** Requests of one batch running at once on one target (runtime: plan.ts targetKey). */
  perTarget: number
}

export interface RunBatchOptions {
  invoke: (endpoint: AnyEndpoint, raw: Readonly<Record<string, unknown>>, options: InvokeOptions) => Promise<Invoked<unknown>>
  bounds: BatchBounds
  /** The batch's deadline; requests still running then answer 504, those not started too. */
  deadlineMs: number
  /** Undefined when the answer is not streamed. */
  emit: Emit | undefined
  /** The client went away (or stopped reading): nothing more is started. */
  signal: AbortSignal
  log: Logger
  requestId: string
}

function errorResult(item: PlannedItem, error: ApiError): ItemResult {
  return { index: item.index, status: error.status, endpoint: item.endpoint?.name ?? null, error: { code: error.code, message: error.message, details: error.details } }
}

/** The results in the order of the batch (also when emitted as they finished). */
export async function runBatch(plan: Plan, options: RunBatchOptions): Promise<ItemResult[]> {
  const { bounds, emit, signal, log } = options
  const results: ItemResult[] = new Array<ItemResult>(plan.items.length)
  const deadline = new AbortController()
  const expired = new DeadlineError(options.deadlineMs)
  // One promise every running item races: a resolver that ignores its signal cannot hold the batch past its deadline.
  let timer: NodeJS.Timeout | undefined
  const deadlinePassed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      deadline.abort(expired)
      reject(expired)
    }, options.deadlineMs)
  })
  deadlinePassed.catch(() => {})
  const stop = AbortSignal.any([signal, deadline.signal])

  let backlog: Promise<void> | undefined
  const finish = (result: ItemResult): void => {
    results[result.index] = result
    const wait = emit?.(result)
    if (wait) backlog = wait
  }

  const failure = (item: PlannedItem, thrown: unknown): ApiError => {
    if (deadline.signal.aborted) return expired
    if (thrown instanceof ApiError) return thrown
    if (signal.aborted) return new ClientClosedError()
    log.error({ request_id: options.requestId, err: thrown, endpoint: item.endpoint?.name, index: item.index }, 'unhandled error')
    return new InternalError()
  }

  const runOne = async (item: PlannedItem): Promise<void> => {
    const endpoint = item.endpoint!
    try {
      const answer = await Promise.race([options.invoke(endpoint, item.raw, { signal: stop, ...(item.controls ? { controls: item.controls } : {}) }), deadlinePassed])
      const result: ItemResult = { index: item.index, status: 200, endpoint: endpoint.name, cache: answer.cache }
      if (answer.stale) result.stale = answer.stale
      if (answer.pagination) result.pagination = answer.pagination
      result.data = answer.data
      finish(result)
    } catch (thrown) {
      finish(errorResult(item, failure(item, thrown)))
    }
  }

  try {
    // Items that cannot run are answered first, in order.
    const pending: PlannedItem[] = []
    for (const item of plan.items) {
      if (item.error !== undefined) finish(errorResult(item, item.error))
      else pending.push(item)
    }
    const busy = new Map<string, number>()
    let running = 0
    await new Promise<void>((resolve) => {
      const pump = (): void => {
        if (stop.aborted) {
          // Nothing more starts; what never ran answers why.
          const why = deadline.signal.aborted ? expired : new ClientClosedError()
          for (const item of pending.splice(0)) finish(errorResult(item, why))
        }
        for (let i = 0; i < pending.length && running < bounds.inFlight; ) {
          const item = pending[i]!
          const target = item.target
          if (target !== undefined && (busy.get(target) ?? 0) >= bounds.perTarget) {
            i++
            continue
          }
          pending.splice(i, 1)
          running++
          if (target !== undefined) busy.set(target, (busy.get(target) ?? 0) + 1)
          void runOne(item).then(async () => {
            running--
            if (target !== undefined) {
              const left = busy.get(target)! - 1
              if (left === 0) busy.delete(target)
              else busy.set(target, left)
            }
            // A slow reader of the stream holds the next requests back.
            if (backlog) {
              const wait = backlog
              backlog = undefined
              await wait
            }
            pump()
          })
        }
        if (running === 0 && pending.length === 0) resolve()
      }
      stop.addEventListener('abort', pump, { once: true })
      pump()
    })
  } finally {
    clearTimeout(timer)
  }
  return results
}
