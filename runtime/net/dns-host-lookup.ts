import { UpstreamError } from '../errors.ts'
import type { DnsClient } from './dns/dns-client.ts'
import { DnsError } from './dns/dns-error.ts'
import type { HostLookup } from './guarded-network.ts'

/** DNS failures as the gateway reports them: 502 with upstream "dns" and the reason. */
export function dnsUpstreamError(error: unknown, name: string): UpstreamError {
  if (error instanceof DnsError) {
    const reason = error.reason === 'aborted' || error.reason === 'timeout' ? 'timeout' : error.reason === 'refused' ? 'refused' : error.reason === 'bad_response' ? 'bad_response' : 'network'
    return new UpstreamError('dns', reason, `DNS lookup of ${name} failed: ${error.message}`, {
      name,
      ...(error.server ? { server: error.server.name } : {}),
    })
  }
  return new UpstreamError('dns', 'network', `DNS lookup of ${name} failed: ${(error as Error).message}`, { name })
}

/**
 * Host -> addresses with the service's own resolver (never the OS's), A and AAAA
 * in parallel; what the API reports about a name is what it connects to.
 */
export function dnsHostLookup(dns: DnsClient): HostLookup {
  return async (host, signal) => {
    const results = await Promise.allSettled([dns.query(host, 'A', { signal }), dns.query(host, 'AAAA', { signal })])
    const addresses: string[] = []
    for (const result of results) {
      if (result.status !== 'fulfilled') continue
      for (const record of result.value.answers) if (record.type === 'A' || record.type === 'AAAA') addresses.push((record.data as { address: string }).address)
    }
    if (addresses.length === 0 && results.every((r) => r.status === 'rejected')) throw dnsUpstreamError((results[0] as PromiseRejectedResult).reason, host)
    return addresses
  }
}
