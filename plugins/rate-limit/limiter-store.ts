import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible'
import type { RateLimiterAbstract } from 'rate-limiter-flexible'
import type { Clock } from '../../runtime/clock.ts'
import type { SharedRedis } from '../../runtime/shared-redis.ts'
import { MemoryWindows } from './memory-windows.ts'

/** A tier's counters: in this process (synchronous), or shared through Redis. */
export type TierLimiter = MemoryWindows | RateLimiterAbstract

export const WINDOW_SECONDS = 60

/**
 * One limiter per tier. rate-limiter-flexible gives every store the same
 * interface: with Redis the counters are shared by every instance (atomic in
 * Redis, so N instances still let exactly `limit` through); when Redis fails a
 * call, its insurance limiter counts in this process instead, so limits still hold
 * per process during an outage.
 */
export function createTierLimiters(limits: Readonly<Record<string, number>>, clock: Clock, redis?: SharedRedis): Map<string, TierLimiter> {
  return new Map(
    Object.entries(limits).map(([tier, points]): [string, TierLimiter] => {
      // One instance: synchronous windows in memory (memory-windows.ts says why).
      // Shared counters live in Redis, whose windows are Redis's own TTLs.
      if (!redis) return [tier, new MemoryWindows({ points, durationSeconds: WINDOW_SECONDS, now: () => clock.now() })]
      const memory = new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix: `rl:${tier}` })
      return [
        tier,
        new RateLimiterRedis({
          storeClient: redis.client,
          points,
          duration: WINDOW_SECONDS,
          keyPrefix: `${redis.prefix}rl:${tier}`,
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        }),
      ]
    }),
  )
}
