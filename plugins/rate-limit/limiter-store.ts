import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible'
import type { RateLimiterAbstract } from 'rate-limiter-flexible'
import type { SharedRedis } from '../../runtime/shared-redis.ts'

export const WINDOW_SECONDS = 60

/**
 * One limiter per tier. rate-limiter-flexible gives every store the same
 * interface: with Redis the counters are shared by every instance (atomic in
 * Redis, so N instances still let exactly `limit` through); when Redis fails a
 * call, its insurance limiter counts in this process instead, so limits still hold
 * per process during an outage.
 */
export function createTierLimiters(limits: Readonly<Record<string, number>>, redis?: SharedRedis): Map<string, RateLimiterAbstract> {
  return new Map(
    Object.entries(limits).map(([tier, points]): [string, RateLimiterAbstract] => {
      const memory = new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix: `rl:${tier}` })
      if (!redis) return [tier, memory]
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
