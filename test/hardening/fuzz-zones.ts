import { isIPv4, isIPv6 } from 'node:net'
import type { startLoopbackDns as StartLoopbackDns } from '../support/loopback-dns.ts'
import type { ZoneSource } from '../support/dns-server.ts'
import type { TestDnsServer } from '../support/dns-server.ts'
import { isSafeAddress } from './fuzz-addresses.ts'

// The fuzzer's own world: the loopback internet of every other test
// (test/support/loopback-internet.ts), with its DNS zones rewritten so that every
// A and AAAA record is loopback or documentation. The shared zones map
// example.com to 93.184.215.14, google.com to 142.250.74.46, dns.google to 8.8.8.8
// and so on (the descriptors' examples show real-looking answers); a fuzzer
// sending example.com, EXAMPLE.COM., example。com or https://www.example.com/ to
// a web or TLS endpoint would have the service connect there. Here each such
// record points into 203.0.113.0/24 or 2001:db8:f022::/48 instead, which the
// service's target policy refuses before any connect.
//
// Each fuzz test file installs it with
//   vi.mock('../support/loopback-dns.ts', async (original) => (await import('./fuzz-zones.ts')).fuzzWorldDns(await original()))
// so startLoopbackInternet() (and nothing else in that file) serves these zones.

/** 203.0.113.x / 2001:db8:f022::x for a public address, the same one each time. */
function standIn(address: string): string {
  let h = 0
  for (const c of address) h = (h * 31 + c.charCodeAt(0)) >>> 0
  return isIPv4(address) ? `203.0.113.${1 + (h % 254)}` : `2001:db8:f022::${(h & 0xffff).toString(16)}`
}

const ADDRESS_RECORD = /(\bIN\s+(?:\d+\s+)?(?:A|AAAA)\s+)(\S+)/gi

/** A master file with every address record outside loopback/documentation replaced by a documentation stand-in. */
export function documentedZoneText(text: string): string {
  return text.replace(ADDRESS_RECORD, (_, head: string, address: string) => (isSafeAddress(address) ? `${head}${address}` : `${head}${standIn(address)}`))
}

export function documentedZone(zone: ZoneSource): ZoneSource {
  if (typeof zone === 'string') return documentedZoneText(zone)
  if (zone.text !== undefined) return { ...zone, text: documentedZoneText(zone.text) }
  // A zone file by path: none in the loopback internet; refuse rather than serve it unchecked.
  throw new Error(`fuzz world: zone files by path are not rewritten (${zone.path})`)
}

/** Every A/AAAA record a running server holds: the proof the rewrite left nothing public. */
export function addressRecords(server: TestDnsServer): Array<{ name: string; address: string }> {
  const out: Array<{ name: string; address: string }> = []
  for (const zone of server.zones) {
    for (const [name, types] of zone.nodes) {
      for (const record of types.get(1) ?? []) out.push({ name, address: [...record.rdata].join('.') })
      for (const record of types.get(28) ?? []) {
        const hex = record.rdata.toString('hex')
        const text = hex.match(/.{4}/g)!.join(':')
        out.push({ name, address: isIPv6(text) ? text : hex })
      }
    }
  }
  return out
}

/** Every DNS server the fuzz world started (resolver and propagation servers). */
export const fuzzDnsServers: TestDnsServer[] = []

type LoopbackDnsModule = { startLoopbackDns: typeof StartLoopbackDns } & Record<string, unknown>

/** The loopback-dns module with startLoopbackDns serving documented zones. */
export function fuzzWorldDns<M extends LoopbackDnsModule>(original: M): M {
  const start: typeof StartLoopbackDns = async (options = {}) => {
    const zones = options.zones?.map(documentedZone)
    const propagation = options.propagation?.map((set) => set.map(documentedZone))
    const dns = await original.startLoopbackDns({
      ...options,
      ...(zones ? { zones } : { zones: (original.DEFAULT_ZONES as ZoneSource[]).map(documentedZone) }),
      ...(propagation ? { propagation } : {}),
    })
    fuzzDnsServers.push(dns.resolver, ...dns.propagation)
    return dns
  }
  return { ...original, startLoopbackDns: start }
}
