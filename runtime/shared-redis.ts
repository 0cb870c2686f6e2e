import { Redis } from 'ioredis'
import type { Logger } from 'pino'

// The one Redis connection of a process, shared by the cache and the rate limiter
// (DESIGN §4). Commands never queue while Redis is away: callers see an error at
// once and fall back (cache bypass, in-memory limiter), so a Redis outage slows
// nothing down. The outage is logged once when it starts and once when it ends.

export interface SharedRedis {
  readonly client: Redis
  readonly prefix: string
  /** Connected and accepting commands right now. */
  isUp(): boolean
  /** For readiness: a PING within the deadline, or the reason it failed. */
  ping(timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

export function createSharedRedis(url: string, prefix: string, log: Logger): SharedRedis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 250,
    connectTimeout: 1000,
    // Keep trying forever, at most every 2 s: the service recovers by itself.
    retryStrategy: (times) => Math.min(times * 100, 2000),
    lazyConnect: false,
  })
  let down = false
  const outage = (reason: string) => {
    if (down) return
    down = true
    log.warn({ reason }, 'redis unreachable: cache bypassed, rate limits fall back to this process until it returns')
  }
  client.on('error', (error: Error) => outage(error.message))
  // A dropped connection emits close first; the error comes only when reconnecting fails.
  client.on('close', () => outage('connection closed'))
  client.on('ready', () => {
    if (down) log.info('redis reachable again: shared cache and limits restored')
    down = false
  })
  return {
    client,
    prefix,
    isUp: () => client.status === 'ready',
    async ping(timeoutMs = 500) {
      if (client.status !== 'ready') throw new Error(`redis is ${client.status}`)
      await Promise.race([
        client.ping(),
        new Promise((_, reject) => setTimeout(() => reject(new Error(`redis did not answer PING within ${timeoutMs} ms`)), timeoutMs).unref()),
      ])
    },
    async close() {
      down = true // a deliberate close is not an outage
      try {
        if (client.status === 'ready') await client.quit()
        else client.disconnect()
      } catch {
        client.disconnect()
      }
    },
  }
}
