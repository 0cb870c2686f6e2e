import { RateLimiterRes } from 'rate-limiter-flexible'
import type { RateLimiterAbstract } from 'rate-limiter-flexible'
import type { RateLimitState } from '../../runtime/call.ts'
import { defineLayer } from '../../runtime/call.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { RateLimitedError } from '../../runtime/errors.ts'
import { WINDOW_SECONDS, createTierLimiters } from './limiter-store.ts'

/** What a request refused before the limiter ran (e.g. a bad API key) costs. */
const REFUSAL_COST = 1

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

    /** Over the limit: give the refused points back, report the state, 429. */
    const refuse = async (limiter: RateLimiterAbstract, tier: string, principal: string, cost: number, rejection: RateLimiterRes, headers: Record<string, string>): Promise<never> => {
      // consume() counts refused points too; give them back so a refused
      // expensive call does not also burn what a cheaper one could use.
      const refunded = await limiter.reward(principal, cost).catch(() => rejection)
      const limit = limits[tier]!
      const state = stateOf(limit, refunded)
      Object.assign(headers, headersOf(state, policies.get(tier)!))
      throw new RateLimitedError(state.resetSeconds, { tier, limit, window_seconds: WINDOW_SECONDS, cost })
    }

    api.layer(
      defineLayer({
        name: 'rate-limit',
        stage: 'limit',
        forEndpoint: (endpoint) => {
          const cost = endpoint.cost
          return async (call, next) => {
            const tier = call.caller.tier
            const limiter = limiters.get(tier)!
            let res: RateLimiterRes | null
            try {
              // cost 0 (health probes, usage) reads the counter without spending it.
              res = cost === 0 ? await limiter.get(call.caller.principal) : await limiter.consume(call.caller.principal, cost)
            } catch (rejection) {
              if (!(rejection instanceof RateLimiterRes)) throw rejection
              return refuse(limiter, tier, call.caller.principal, cost, rejection, call.headers)
            }
            const state = stateOf(limits[tier]!, res)
            call.caller.rateLimit = state
            Object.assign(call.headers, headersOf(state, policies.get(tier)!))
            return next()
          }
        },

        // A request refused before the limiter counted it (auth's 401 for a bad
        // key) is charged to whoever the caller still is (anonymous, by IP):
        // otherwise a flood of made-up keys would be limited by nothing. Once
        // that budget is spent the answer is the 429, like any other request.
        async onError(call, error) {
          if (call.headers['ratelimit-limit'] !== undefined) return error
          const { tier, principal } = call.caller
          const limiter = limiters.get(tier)!
          let res: RateLimiterRes
          try {
            res = await limiter.consume(principal, REFUSAL_COST)
          } catch (rejection) {
            if (!(rejection instanceof RateLimiterRes)) return error
            return refuse(limiter, tier, principal, REFUSAL_COST, rejection, call.headers).catch((limited: unknown) => limited)
          }
          Object.assign(call.headers, headersOf(stateOf(limits[tier]!, res), policies.get(tier)!))
          return error
        },

        // Unknown routes, wrong methods and CORS preflights only report the
        // caller's state (a read, never a charge): they cost us less than the
        // limiter write would, a browser sends a preflight before many of its
        // real calls (charging would halve its budget), and a mistyped path
        // should not burn a client's allowance.
        async unrouted(caller, headers) {
          const res = await limiters.get(caller.tier)!.get(caller.principal)
          Object.assign(headers, headersOf(stateOf(limits[caller.tier]!, res), policies.get(caller.tier)!))
        },
      }),
    )
  },
})
