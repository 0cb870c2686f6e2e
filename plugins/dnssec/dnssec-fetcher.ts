// The validator's view of DNS: every question goes to the service's stub resolver with
// DO (RRSIGs and NSECs wanted) and CD (a validating resolver must hand over what it
// would call bogus, so we can judge it ourselves — RFC 4035 §3.2.2). Answers are kept
// for their TTL (at most 5 minutes) and identical questions in flight share one query,
// so the upper part of a chain (root, TLD) is fetched once for many names.

import { LRUCache } from 'lru-cache'
import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import type { DnsAnswer } from '../../runtime/net/dns/dns-records.ts'
import type { DnsTypeMnemonic } from '../../runtime/net/dns/dns-types.ts'
import type { Name } from './names.ts'

export interface DnssecFetcher {
  fetch(name: Name, type: DnsTypeMnemonic, signal?: AbortSignal): Promise<DnsAnswer>
  /** Drops every kept answer (benchmarks of cold chains, tests). */
  clear(): void
}

export interface FetcherOptions {
  maxEntries?: number
  maxTtlSeconds?: number
}

function cacheSeconds(answer: DnsAnswer, max: number): number {
  if (answer.rcode !== 'NOERROR' && answer.rcode !== 'NXDOMAIN') return 0
  const ttls = [...answer.answers, ...answer.authorities].map((r) => r.ttl)
  return Math.min(max, ...ttls)
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

export function createFetcher(dns: DnsClient, options: FetcherOptions = {}): DnssecFetcher {
  const maxTtl = options.maxTtlSeconds ?? 300
  const cache = new LRUCache<string, DnsAnswer>({ max: options.maxEntries ?? 10_000 })
  const inflight = new Map<string, Promise<DnsAnswer>>()

  return {
    fetch(name, type, signal) {
      const key = `${name.text}/${type}`
      const cached = cache.get(key)
      if (cached) return Promise.resolve(cached)
      let pending = inflight.get(key)
      if (!pending) {
        // Not tied to one caller's signal: others may be waiting on the same answer;
        // the client's own deadline bounds it.
        pending = dns.query(name.text, type, { dnssec: true, checkingDisabled: true }).then(
          (answer) => {
            inflight.delete(key)
            const seconds = cacheSeconds(answer, maxTtl)
            if (seconds > 0) cache.set(key, answer, { ttl: seconds * 1000 })
            return answer
          },
          (error: unknown) => {
            inflight.delete(key)
            throw error
          },
        )
        inflight.set(key, pending)
      }
      return abortable(pending, signal)
    },
    clear() {
      cache.clear()
    },
  }
}
