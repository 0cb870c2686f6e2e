import { Redis } from 'ioredis'
import type { Logger } from 'pino'

// The one Redis connection of a process, shared by the cache and the rate limiter
// (DESIGN §4). Commands never queue while Redis is away: callers see an error at
// once and fall back (cache bypass, in-memory limiter), so a Redis outage slows
// nothing down. The outage is logged once when it starts and once when it ends.
//
// A command that Redis does not answer is given up after COMMAND_TIMEOUT_MS by
// within(), not by ioredis's commandTimeout: that one is a plain timer, and on an
// event loop that lagged (a busy box, a burst of requests) it fired for answers
// already waiting in the socket, unread. The rate limiter then counted those
// requests again in its fallback while Redis had counted them too, and let 332
// of 1,000 concurrent requests through a limit of 60 (issue 21). within() gives up
// only once the timer has fired and the loop has polled the socket after it.

/** How long a Redis command may take (with the event loop free to read the answer) before its caller falls back. */
export const COMMAND_TIMEOUT_MS = 250

export class RedisTimeoutError extends Error {
  override name = 'RedisTimeoutError'
}

export interface SharedRedis {
  readonly client: Redis
  readonly prefix: string
  /** Connected and accepting commands right now. */
  isUp(): boolean
  /** For readiness: a PING within the deadline, or the reason it failed. */
  ping(timeoutMs?: number): Promise<void>
  /**
   * `command`'s outcome, or a RedisTimeoutError when it has not answered within
   * COMMAND_TIMEOUT_MS of event-loop time able to read it (see above). The command
   * itself may still run in Redis after that.
   */
  within<T>(command: Promise<T>): Promise<T>
  /** Resolves true once connected (at once if it is), false after `timeoutMs` without. */
  untilReady(timeoutMs: number): Promise<boolean>
  close(): Promise<void>
}

/**
 * Rejects only when the timer has fired and, after it, the event loop has been
 * through a poll phase (setImmediate runs right after one): an answer that arrived
 * while the loop was busy is read there first and wins.
 */
export function within<T>(command: Promise<T>, timeoutMs: number = COMMAND_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (settled) return
          settled = true
          reject(new RedisTimeoutError(`redis did not answer within ${timeoutMs} ms`))
        }),
      timeoutMs,
    )
    command.then(
      (value) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        reject(error)
      },
    )
  })
}

export function createSharedRedis(url: string, prefix: string, log: Logger): SharedRedis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // No commandTimeout: callers bound their commands with within() (see above).
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
      await within(client.ping(), timeoutMs).catch((error: unknown) => {
        throw error instanceof RedisTimeoutError ? new Error(`redis did not answer PING within ${timeoutMs} ms`) : error
      })
    },
    within,
    untilReady(timeoutMs) {
      if (client.status === 'ready') return Promise.resolve(true)
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          client.off('ready', onReady)
          resolve(false)
        }, timeoutMs)
        timer.unref()
        const onReady = () => {
          clearTimeout(timer)
          resolve(true)
        }
        client.once('ready', onReady)
      })
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
