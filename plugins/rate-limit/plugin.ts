import { RateLimiterRes } from 'rate-limiter-flexible'
import type { RateLimitState } from '../../runtime/call.ts'
import { defineLayer } from '../../runtime/call.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { RateLimitedError } from '../../runtime/errors.ts'
import { WINDOW_SECONDS, createTierLimiters } from './limiter-store.ts'

function stateOf(limit: number, res: RateLimiterRes | null): RateLimitState {
  const used = res?.consumedPoints ?? 0
  const ms = res && res.msBeforeNext > 0 ? res.msBeforeNext : WINDOW_SECONDS * 1000
  return { limit, remaining: Math.max(0, limit - used), resetSeconds: Math.ceil(ms / 1000), windowSeconds: WINDOW_SECONDS }
}

function headersOf(state: RateLimitState, policy: string): Record<string, string> {
  return {
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetSeconds),
    'ratelimit-policy': policy,
  }
}

export default definePlugin({
  name: 'rate-limit',
  dependencies: ['auth'],
  setup(api) {
    const limits = api.config.rateLimits
    const limiters = createTierLimiters(limits, api.redis)
    const policies = new Map(Object.entries(limits).map(([tier, n]) => [tier, `${n};w=${WINDOW_SECONDS}`]))

    api.layer(
      defineLayer({
        name: 'rate-limit',
        stage: 'limit',
        forEndpoint: (endpoint) => {
          const cost = endpoint.cost
          return async (call, next) => {
            const tier = call.caller.tier
            const limiter = limiters.get(tier)!
            const limit = limits[tier]!
            let res: RateLimiterRes | null
            try {
              // cost 0 (health probes, usage) reads the counter without spending it.
              res = cost === 0 ? await limiter.get(call.caller.principal) : await limiter.consume(call.caller.principal, cost)
            } catch (rejection) {
              if (!(rejection instanceof RateLimiterRes)) throw rejection
              // consume() counts refused points too; give them back so a refused
              // expensive call does not also burn what a cheaper one could use.
              const refunded = await limiter.reward(call.caller.principal, cost).catch(() => rejection)
              const state = stateOf(limit, refunded)
              Object.assign(call.headers, headersOf(state, policies.get(tier)!))
              throw new RateLimitedError(state.resetSeconds, { tier, limit, window_seconds: WINDOW_SECONDS, cost })
            }
            const state = stateOf(limit, res)
            call.caller.rateLimit = state
            Object.assign(call.headers, headersOf(state, policies.get(tier)!))
            return next()
          }
        },
      }),
    )
  },
})
