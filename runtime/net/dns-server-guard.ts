import type { DnsServerGuard } from './dns/dns-client.ts'
import { DnsError } from './dns/dns-error.ts'
import type { Verdict, UpstreamGuard } from './upstream-guard.ts'

// The breaker of the DNS client: one circuit per configured resolver. A resolver
// that times out or refuses repeatedly is skipped in favour of the next one until
// its half-open probe (the first query after the open period) gets an answer.
//
// When every resolver's circuit is open the client asks them all the same: a
// recursive resolver also times out for names whose own servers are dead, so a
// user asking about such names could otherwise open every circuit and stop DNS
// for everyone. The worst such a user can do is change which resolver is asked first.

/** An answer of any rcode is health; a query the caller abandoned says nothing. */
function judge(error: unknown): Verdict {
  if (!(error instanceof DnsError)) return 'unknown'
  return error.reason === 'aborted' ? 'unknown' : 'failure'
}

export function guardDnsServers(guard: UpstreamGuard): DnsServerGuard {
  const key = (server: { host: string; port: number }) => `dns ${server.host}:${server.port}`
  return {
    available: (server) => guard.available(key(server)),
    async attempt(server, exchange, signal) {
      try {
        return await guard.attempt(key(server), exchange, { ...(signal ? { signal } : {}), judge })
      } catch (error) {
        // Given up while waiting for a slot: the client's own way of saying so.
        if (!(error instanceof DnsError) && signal?.aborted) throw new DnsError('aborted', 'the query was aborted', { cause: signal.reason })
        throw error
      }
    },
  }
}
