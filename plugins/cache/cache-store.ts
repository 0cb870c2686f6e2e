import { LRUCache } from 'lru-cache'
import type { Clock } from '../../runtime/clock.ts'

export interface CacheEntry {
  data: unknown
  /** Epoch ms after which the entry is stale. */
  expiresAt: number
  /** Epoch ms until which a stale entry may still answer when the upstream fails. */
  staleUntil: number
}

/**
 * Where cached data lives. The memory store answers synchronously; a shared store
 * (Redis) returns promises — callers await either. Entries are kept until
 * staleUntil; freshness (expiresAt) is the caller's judgement.
 */
export interface CacheStore {
  get(key: string): CacheEntry | undefined | Promise<CacheEntry | undefined>
  set(key: string, entry: CacheEntry): void | Promise<void>
}

export function createMemoryStore(maxEntries: number, clock: Clock): CacheStore {
  if (maxEntries === 0) return { get: () => undefined, set: () => {} }
  const lru = new LRUCache<string, CacheEntry>({ max: maxEntries })
  return {
    get(key) {
      const entry = lru.get(key)
      if (entry === undefined) return undefined
      if (entry.staleUntil <= clock.now()) {
        lru.delete(key)
        return undefined
      }
      return entry
    },
    // No lru-cache TTL: the entry's own staleUntil, read against the app's clock
    // in get(), is the one judge (lru-cache's would run on performance.now() and
    // cost every get a second freshness check). A stale entry leaves when it is
    // next asked for or when it is the least recently used.
    set(key, entry) {
      lru.set(key, entry)
    },
  }
}
