import type { Clock } from '../../runtime/clock.ts'
import type { SharedRedis } from '../../runtime/shared-redis.ts'
import type { CacheEntry, CacheStore } from './cache-store.ts'

/**
 * The shared cache: entries in Redis under the deployment's prefix with their TTL
 * (PX), in front of them the process's own LRU so a hot key is not fetched from
 * Redis on every request. While Redis is away, only the local tier answers.
 */
export function createRedisStore(redis: SharedRedis, local: CacheStore, clock: Clock): CacheStore {
  const keyOf = (key: string) => `${redis.prefix}cache:${key}`
  return {
    async get(key) {
      const near = await local.get(key)
      if (near !== undefined) return near
      if (!redis.isUp()) return undefined
      let text: string | null
      try {
        text = await redis.within(redis.client.get(keyOf(key)))
      } catch {
        return undefined
      }
      if (text === null) return undefined
      const entry = decodeEntry(text)
      if (entry === undefined) {
        // Another writer (an older version, an operator, a bad disk) left something
        // that is not an entry: a miss, and the next answer overwrites it.
        redis.client.del(keyOf(key)).catch(() => {})
        return undefined
      }
      if (entry.staleUntil <= clock.now()) return undefined
      await local.set(key, entry)
      return entry
    },
    async set(key, entry) {
      await local.set(key, entry)
      const ttl = entry.staleUntil - clock.now()
      if (ttl <= 0 || !redis.isUp()) return
      try {
        await redis.within(redis.client.set(keyOf(key), JSON.stringify(entry), 'PX', ttl))
      } catch {
        // Redis went away between the check and the write; the local tier has it.
      }
    },
  }
}

/** The entry stored under a key, or undefined when the text is not one (shared storage is not trusted to be ours). */
export function decodeEntry(text: string): CacheEntry | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null || !('data' in value)) return undefined
  const { expiresAt, staleUntil } = value as Partial<Record<'expiresAt' | 'staleUntil', unknown>>
  if (!Number.isFinite(expiresAt) || !Number.isFinite(staleUntil)) return undefined
  return value as CacheEntry
}
