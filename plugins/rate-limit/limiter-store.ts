import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'
import type { MaybePromise } from '../../runtime/call.ts'
import type { Clock } from '../../runtime/clock.ts'
import type { ClusterLink } from '../../runtime/cluster/worker-link.ts'
import { MemoryWindows } from '../../runtime/memory-windows.ts'
import type { SharedRedis } from '../../runtime/shared-redis.ts'

export const WINDOW_SECONDS = 60

/** A window as the layer reports it (null: no open window). */
export type Counted = { consumedPoints: number; msBeforeNext: number } | null

/** The outcome of spending: the window after it, and whether it was refused (then nothing was spent). */
export interface Spent {
  state: { consumedPoints: number; msBeforeNext: number }
  refused: boolean
}

/**
 * A tier's counters. A spend that would pass the limit spends nothing, in one
 * step: no second call gives refused points back, and a refused expensive call
 * never crowds out a cheaper one that fits.
 */
export interface TierCounter {
  consume(key: string, points: number): MaybePromise<Spent>
  get(key: string): MaybePromise<Counted>
  close(): void
}

/**
 * One counter per tier, from where the service's counts are kept:
 * - one process: synchronous fixed windows in memory (runtime/memory-windows.ts);
 * - a cluster worker: the same windows, kept by the primary for every worker
 *   (runtime/cluster/primary-windows.ts), so the workers of a host count as one;
 * - REDIS_URL: rate-limiter-flexible's RateLimiterRedis, shared by every instance
 *   (and host), and while Redis does not answer the counters above stand in:
 *   limits then hold per host (cluster) or per process.
 */
export function createTierCounters(limits: Readonly<Record<string, number>>, clock: Clock, redis: SharedRedis | undefined, cluster: ClusterLink | undefined): Map<string, TierCounter> {
  return new Map(
    Object.entries(limits).map(([tier, points]): [string, TierCounter] => {
      const here = cluster ? clusterCounter(cluster, tier, points) : localCounter(new MemoryWindows({ points, durationSeconds: WINDOW_SECONDS, now: () => clock.now() }))
      return [tier, redis ? redisCounter(redis, tier, points, here) : here]
    }),
  )
}

function localCounter(windows: MemoryWindows): TierCounter {
  return {
    consume(key, points) {
      const spent = windows.consume(key, points)
      // Refused: the points come back at once (synchronous, so nobody sees them counted).
      return spent.refused ? { state: windows.reward(key, points), refused: true } : spent
    },
    get: (key) => windows.get(key),
    close: () => windows.close(),
  }
}

function clusterCounter(cluster: ClusterLink, tier: string, points: number): TierCounter {
  const windows = cluster.windows(`rl:${tier}`, { points, durationSeconds: WINDOW_SECONDS })
  return { consume: (key, cost) => windows.consume(key, cost), get: (key) => windows.get(key), close() {} }
}

/**
 * RateLimiterRedis's script counts every call and the caller gives refused
 * points back with a second call (reward). Under load the two race, and each is
 * one more command that can time out. This one adds the points only when they
 * fit; refused, it reports what the total would have been (the library refuses
 * on consumed > points) and stores nothing. A window opens with the first call
 * either way, as in memory. ARGV: points, duration (s), the limit.
 */
const SPEND_IF_FITS = `redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local cost = tonumber(ARGV[1])
local stored = tonumber(redis.call('get', KEYS[1]))
local consumed
if cost <= 0 or stored + cost <= tonumber(ARGV[3]) then
  consumed = redis.call('incrby', KEYS[1], cost)
else
  consumed = stored + cost
end
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {consumed, ttl}`

function redisCounter(redis: SharedRedis, tier: string, points: number, insurance: TierCounter): TierCounter {
  const limiter = new RateLimiterRedis({
    storeClient: redis.client,
    points,
    duration: WINDOW_SECONDS,
    keyPrefix: `${redis.prefix}rl:${tier}`,
    // Not connected: fail at once, and the insurance counts.
    rejectIfRedisNotReady: true,
    customIncrTtlLuaScript: SPEND_IF_FITS,
  })
  return {
    // The insurance counts only when Redis failed or gave no answer in time
    // (redis.within: a late timer on a lagging loop is not "no answer").
    async consume(key, cost) {
      try {
        return { state: await redis.within(limiter.consume(key, cost)), refused: false }
      } catch (error) {
        if (error instanceof RateLimiterRes) return { state: { consumedPoints: error.consumedPoints - cost, msBeforeNext: error.msBeforeNext }, refused: true }
        return insurance.consume(key, cost)
      }
    },
    async get(key) {
      try {
        return await redis.within(limiter.get(key))
      } catch {
        return insurance.get(key)
      }
    },
    close: () => insurance.close(),
  }
}
