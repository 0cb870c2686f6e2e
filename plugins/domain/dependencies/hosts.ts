import type { z } from 'zod'
import a from '../../../registry/dns/a.ts'
import aaaa from '../../../registry/dns/aaaa.ts'
import mx from '../../../registry/dns/mx.ts'
import ns from '../../../registry/dns/ns.ts'
import type { DependencyLookup, DependencyRole } from '../../../registry/domain/schemas/dependencies-data.ts'
import type { PartError } from './part-error.ts'

// Which hosts a domain depends on, and their addresses: the NS targets, the MX
// exchanges, the apex and www, each asked through the DNS endpoints (ctx.invoke,
// so their cache is shared with /api/dns/*). A question that fails is an error of
// its own; the other hosts stand.

type Role = z.infer<typeof DependencyRole>
export type Lookup = z.input<typeof DependencyLookup>

export interface HostAddress {
  role: Role
  host: string
  address: string
}

export type DnsEndpoint = typeof a | typeof aaaa | typeof mx | typeof ns
type DnsAnswer = { status: string; records: Array<Record<string, unknown>> }

export interface HostWork {
  lookups: Lookup[]
  errors: PartError[]
}

/** Ask `type` about `name`, noting the question in `work`; [] when it failed. */
export function dnsAsker(invoke: (endpoint: DnsEndpoint, name: string) => Promise<DnsAnswer>, work: HostWork, fail: (part: string, error: unknown) => PartError) {
  return async (role: Role, endpoint: DnsEndpoint, name: string): Promise<Array<Record<string, unknown>>> => {
    const type = endpoint.dnsType as Lookup['type']
    const lookup: Lookup = { role, name, type, status: 'failed', count: 0 }
    work.lookups.push(lookup)
    try {
      const answer = await invoke(endpoint, name)
      const records = answer.records.filter((r) => r.type === type)
      lookup.status = answer.status as Lookup['status']
      lookup.count = records.length
      return records
    } catch (error) {
      work.errors.push(fail(`${type} ${name}`, error))
      return []
    }
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null)
/** DNS names as the answers print them: lower case, no trailing dot. */
const hostName = (name: string): string => name.replace(/\.$/, '').toLowerCase()

/**
 * Every (role, host, address) of `domain`: NS and MX first (their targets are then
 * resolved), the apex and www at once. A null MX (RFC 7505, exchange ".") names no host.
 */
export async function dependencyHosts(domain: string, ask: ReturnType<typeof dnsAsker>): Promise<HostAddress[]> {
  const addressesOf = async (role: Role, host: string): Promise<HostAddress[]> => {
    const [v4, v6] = await Promise.all([ask(role, a, host), ask(role, aaaa, host)])
    return [...v4, ...v6].flatMap((r) => {
      const address = text(r.address)
      return address ? [{ role, host, address }] : []
    })
  }
  const www = `www.${domain}`
  const [nsRecords, mxRecords, apex, wwwAddresses] = await Promise.all([ask('ns', ns, domain), ask('mx', mx, domain), addressesOf('web', domain), addressesOf('web', www)])
  const unique = (names: Array<string | null>) => [...new Set(names.filter((n): n is string => n !== null && n !== '' && n !== '.').map(hostName))].filter((n) => n !== '')
  const nsHosts = unique(nsRecords.map((r) => text(r.target)))
  const mxHosts = unique(mxRecords.map((r) => text(r.exchange)))
  const nested = await Promise.all([...nsHosts.map((h) => addressesOf('ns', h)), ...mxHosts.map((h) => addressesOf('mx', h))])
  return [...nested.flat(), ...apex, ...wwwAddresses]
}
