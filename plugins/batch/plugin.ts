import type { z } from 'zod'
import { definePlugin } from '../../runtime/define-plugin.ts'
import type { Caller } from '../../runtime/call.ts'
import { createEndpointRouter } from '../../runtime/endpoint-router.ts'
import { PayloadTooLargeError } from '../../runtime/errors.ts'
import { streamed } from '../../runtime/streamed.ts'
import batch from '../../registry/meta/batch.ts'
import type { BatchData } from '../../registry/meta/schemas/batch-data.ts'
import type { Plan, Planner } from './plan.ts'
import { definePlanner } from './plan.ts'
import type { BatchBounds } from './run-batch.ts'
import { runBatch } from './run-batch.ts'

/**
 * 16 requests of a batch at once: the service's own bound per upstream host
 * (INFRALENS_UPSTREAM_CONCURRENCY's default), so one batch cannot take more of an
 * upstream than a busy client could; 4 at once on one target, so 1,000 names of
 * one domain reach its name servers four queries at a time.
 */
const BOUNDS: BatchBounds = { inFlight: 16, perTarget: 4 }

export default definePlugin({
  name: 'batch',
  setup(api) {
    // Every endpoint is known when plugins set up; the router is built on first use.
    let planner: Planner | undefined
    const plannerOf = (): Planner => (planner ??= definePlanner(api.endpoints(), createEndpointRouter(api.endpoints()), batch))
    // The plan made while pricing, for the resolver of the same call (by its input object).
    const plans = new WeakMap<object, Plan>()

    const planOf = (input: { body: unknown[] }, caller: Readonly<Caller>): Plan => {
      const known = plans.get(input)
      if (known) return known
      const limits = api.config.batchLimits
      // Every tier of the rate limits has a size (runtime/config.ts); null-prototype, so hasOwn.
      const max = Object.hasOwn(limits, caller.tier) ? limits[caller.tier]! : limits.anonymous!
      if (input.body.length > max) {
        throw new PayloadTooLargeError(
          `This batch holds ${input.body.length} requests; the ${caller.tier} tier may send at most ${max} per batch (INFRALENS_BATCH_LIMITS). Split it into batches of ${max}, or use an API key with a higher tier.`,
          { max_items: max, items: input.body.length, tier: caller.tier },
        )
      }
      const plan = plannerOf().plan(input.body)
      plans.set(input, plan)
      return plan
    }

    api.price(batch, (input, caller) => planOf(input, caller).cost)

    api.resolve(batch, (input, ctx) => {
      const plan = planOf(input, ctx.caller)
      return streamed<z.input<typeof BatchData>>(async (emit, signal) => {
        const results = await runBatch(plan, {
          invoke: (endpoint, raw, options) => ctx.invoke(endpoint, raw, options),
          bounds: BOUNDS,
          deadlineMs: api.config.requestTimeoutMs,
          emit,
          signal: AbortSignal.any([signal, ctx.signal]),
          log: ctx.log,
          requestId: ctx.requestId,
        })
        const failed = results.filter((r) => r.status >= 400).length
        return { count: results.length, succeeded: results.length - failed, failed, cost: plan.cost, results }
      })
    })
  },
})
