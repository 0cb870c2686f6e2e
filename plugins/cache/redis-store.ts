import type { SharedRedis } from '../../runtime/shared-redis.ts'
import type { CacheEntry, CacheStore } from './cache-store.ts'

/**
 * The shared cache: entries in Redis under the deployment's prefix with their TTL
 * (PX), in front of them the process's own LRU so a hot key is not fetched from
 * Redis on every request. While Redis is away, only the local tier answers.
 */
export function createRedisStore(redis: SharedRedis, local: CacheStore): CacheStore {
  const keyOf = (key: string) => `${redis.prefix}cache:${key}`
  return {
    async get(key) {
      const near = await local.get(key)
      if (near !== undefined) return near
      if (!redis.isUp()) return undefined
      let text: string | null
      try {
        text = await redis.client.get(keyOf(key))
      } catch {
        return undefined
      }
      if (text === null) return undefined
      const entry = JSON.parse(text) as CacheEntry
      if (entry.staleUntil <= Date.now()) return undefined
      await local.set(key, entry)
      return entry
    },
    async set(key, entry) {
      await local.set(key, entry)
      const ttl = entry.staleUntil - Date.now()
      if (ttl <= 0 || !redis.isUp()) return
      try {
        await redis.client.set(keyOf(key), JSON.stringify(entry), 'PX', ttl)
      } catch {
        // Redis went away between the check and the write; the local tier has it.
      }
    },
  }
}
