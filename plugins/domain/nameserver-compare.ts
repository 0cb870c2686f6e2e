import type { NameserverInfo } from '../rdap/surface.ts'

// The delegation at the registry (what the parent zone publishes) against the NS
// set DNS answers (what the child zone says about itself). They should be equal;
// a difference means a stale or lame delegation, or a half-finished migration.

const clean = (name: string) => name.toLowerCase().replace(/\.$/, '')

export interface NameserverComparison {
  registry_nameservers: string[]
  dns_nameservers: string[] | null
  in_sync: boolean | null
  mismatch: boolean
  only_in_registry: string[]
  only_in_dns: string[]
  nameservers: Array<{ name: string; in_registry: boolean; in_dns: boolean; ipv4: string[]; ipv6: string[] }>
}

export function compareNameservers(registry: readonly NameserverInfo[], dns: readonly string[] | null): NameserverComparison {
  const reg = [...new Set(registry.map((n) => clean(n.name)))].sort()
  const fromDns = dns === null ? null : [...new Set(dns.map(clean))].sort()
  const inDns = new Set(fromDns ?? [])
  const inRegistry = new Set(reg)
  // Nothing to compare when DNS failed or the zone publishes no NS at all.
  const comparable = fromDns !== null && fromDns.length > 0
  const only_in_registry = comparable ? reg.filter((n) => !inDns.has(n)) : []
  const only_in_dns = comparable ? fromDns.filter((n) => !inRegistry.has(n)) : []
  const glue = new Map(registry.map((n) => [clean(n.name), n]))
  const names = [...new Set([...reg, ...(fromDns ?? [])])].sort()
  const differ = only_in_registry.length > 0 || only_in_dns.length > 0
  return {
    registry_nameservers: reg,
    dns_nameservers: fromDns,
    in_sync: comparable ? !differ : null,
    mismatch: comparable && differ,
    only_in_registry,
    only_in_dns,
    nameservers: names.map((name) => ({
      name,
      in_registry: inRegistry.has(name),
      in_dns: inDns.has(name),
      ipv4: glue.get(name)?.ipv4 ?? [],
      ipv6: glue.get(name)?.ipv6 ?? [],
    })),
  }
}
