import type { Call, MaybePromise, RateLimitState } from '../../runtime/call.ts'
import { defineLayer, isPending } from '../../runtime/call.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { RateLimitedError } from '../../runtime/errors.ts'
import type { Counted, Spent } from './limiter-store.ts'
import { WINDOW_SECONDS, createTierCounters } from './limiter-store.ts'

/** What a request refused before the limiter ran (e.g. a bad API key) costs. */
const REFUSAL_COST = 1

function stateOf(limit: number, res: Counted): RateLimitState {
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
  async setup(api) {
    const limits = api.config.rateLimits
    // Counted in Redis from the first request on: wait (briefly) for the
    // connection, or the first requests would be counted by the fallback alone.
    if (api.redis && !(await api.redis.untilReady(2000))) api.log.warn('redis not connected at start: rate limits counted without it until it is')
    const counters = createTierCounters(limits, api.clock, api.redis, api.cluster)
    const policies = new Map(Object.entries(limits).map(([tier, n]) => [tier, `${n};w=${WINDOW_SECONDS}`]))
    const limitTexts = new Map(Object.entries(limits).map(([tier, n]) => [tier, String(n)]))
    api.onClose(() => {
      for (const counter of counters.values()) counter.close()
    })

    /**
     * Over the limit: report the state (refused points already given back), 429
     * naming what the request costs and what is left, so a caller whose request
     * costs many units (a batch, a bulk list) can tell "wait" from "never, ask for less".
     */
    const refused = (tier: string, cost: number, res: Counted, headers: Record<string, string>): RateLimitedError => {
      const limit = limits[tier]!
      const state = stateOf(limit, res)
      Object.assign(headers, headersOf(state, policies.get(tier)!))
      const units = (n: number) => `${n} unit${n === 1 ? '' : 's'}`
      const message =
        cost > limit
          ? `This request costs ${units(cost)}, more than the ${tier} tier's whole limit of ${limit} per ${WINDOW_SECONDS} s: it cannot pass however long you wait. Ask for less in one request (e.g. a smaller batch), or use an API key with a higher tier.`
          : `Rate limit exceeded: this request costs ${units(cost)} and ${units(state.remaining)} of ${limit} are left in this window; retry in ${state.resetSeconds} s or use an API key with a higher tier.`
      return new RateLimitedError(state.resetSeconds, { tier, limit, window_seconds: WINDOW_SECONDS, cost, remaining: state.remaining }, message)
    }

    /**
     * Spends `cost` for the caller (0, health probes and usage: reads without
     * spending); synchronous when the counters are in this process. Throws the 429.
     */
    const spend = (call: Call, cost: number): MaybePromise<RateLimitState> => {
      const { tier, principal } = call.caller
      const counter = counters.get(tier)!
      if (cost === 0) {
        const read = counter.get(principal)
        return isPending(read) ? read.then((res) => stateOf(limits[tier]!, res)) : stateOf(limits[tier]!, read)
      }
      const spent = counter.consume(principal, cost)
      return isPending(spent) ? spent.then((s) => settle(call, cost, s)) : settle(call, cost, spent)
    }
    const settle = (call: Call, cost: number, spent: Spent): RateLimitState => {
      const tier = call.caller.tier
      if (spent.refused) throw refused(tier, cost, spent.state, call.headers)
      return stateOf(limits[tier]!, spent.state)
    }

    // The four headers set one by one on the call's own (no object per request):
    // this runs on every request (bench/RESULTS.md, issue 21).
    const admit = (call: Call, state: RateLimitState): void => {
      call.caller.rateLimit = state
      const headers = call.headers
      headers['ratelimit-limit'] = limitTexts.get(call.caller.tier) ?? String(state.limit)
      headers['ratelimit-remaining'] = String(state.remaining)
      headers['ratelimit-reset'] = String(state.resetSeconds)
      headers['ratelimit-policy'] = policies.get(call.caller.tier)!
    }

    api.layer(
      defineLayer({
        name: 'rate-limit',
        stage: 'limit',
        forEndpoint: (endpoint) => {
          const cost = endpoint.cost
          return (call, next) => {
            // An endpoint with `inputCost` was priced from its input (call.cost, runtime/pipeline.ts).
            const state = spend(call, call.cost ?? cost)
            if (state instanceof Promise) {
              return state.then((s) => {
                admit(call, s)
                return next()
              })
            }
            admit(call, state)
            return next()
          }
        },

        // A request refused before the limiter counted it (auth's 401 for a bad
        // key) is charged to whoever the caller still is (anonymous, by IP):
        // otherwise a flood of made-up keys would be limited by nothing. Once
        // that budget is spent the answer is the 429, like any other request.
        async onError(call, error) {
          if (call.headers['ratelimit-limit'] !== undefined) return error
          try {
            const state = await spend(call, REFUSAL_COST)
            Object.assign(call.headers, headersOf(state, policies.get(call.caller.tier)!))
            return error
          } catch (limited) {
            return limited instanceof RateLimitedError ? limited : error
          }
        },

        // Unknown routes, wrong methods and CORS preflights only report the
        // caller's state (a read, never a charge): they cost us less than the
        // limiter write would, a browser sends a preflight before many of its
        // real calls (charging would halve its budget), and a mistyped path
        // should not burn a client's allowance.
        async unrouted(caller, headers) {
          const res = await counters.get(caller.tier)!.get(caller.principal)
          Object.assign(headers, headersOf(stateOf(limits[caller.tier]!, res), policies.get(caller.tier)!))
        },
      }),
    )
  },
})
