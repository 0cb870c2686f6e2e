import { RateLimiterMemory } from 'rate-limiter-flexible'
import type { RateLimiterAbstract } from 'rate-limiter-flexible'

export const WINDOW_SECONDS = 60

/**
 * One limiter per tier. rate-limiter-flexible gives every store (memory, Redis)
 * the same interface, so sharing limits across instances means swapping the
 * store built here and nothing else.
 */
export function createTierLimiters(limits: Readonly<Record<string, number>>): Map<string, RateLimiterAbstract> {
  return new Map(
    Object.entries(limits).map(([tier, points]) => [tier, new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix: `rl:${tier}` })]),
  )
}
