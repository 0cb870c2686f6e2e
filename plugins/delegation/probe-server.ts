import type { z } from 'zod'
import type { DelegationServer } from '../../registry/domain/schemas/delegation-data.ts'
import type { DnsClient, DnsQueryOptions } from '../../runtime/net/dns/dns-client.ts'
import type { DnsAnswer } from '../../runtime/net/dns/dns-records.ts'
import { checkTargetText } from '../../runtime/net/target-policy.ts'

// One name server address, asked directly (never through the resolver), each
// question once and without retries: a server that drops one is what is reported.
// Every question is plain DNS (no OPT record) but the EDNS0 one, so a server that
// does not speak EDNS0 is reported as that, not as lame or without TCP.
//   SOA, no recursion      authoritative (AA)? which serial? (lame: REFUSED, no AA)
//   SOA with EDNS0         an OPT record back, same rcode (RFC 6891; FORMERR or no OPT: unsupported)
//   NS, no recursion       the NS set it serves
//   SOA over TCP           TCP works (RFC 7766)
//   SOA with recursion     RA set: it offers recursion to us, an open resolver
//   AXFR over TCP          it hands the zone to anyone

export type ServerRow = z.infer<typeof DelegationServer>

export interface ProbeOptions {
  client: DnsClient
  timeoutMs: number
  allowLoopback: boolean
  signal: AbortSignal
}

const clean = (name: string) => name.toLowerCase().replace(/\.$/, '')

async function ask(o: ProbeOptions, address: string, name: string, type: 'SOA' | 'NS' | 'AXFR', extra: DnsQueryOptions = {}): Promise<DnsAnswer | Error> {
  try {
    return await o.client.query(name, type, { server: { host: address }, recursionDesired: false, edns: false, retries: 0, timeoutMs: o.timeoutMs, signal: o.signal, ...extra })
  } catch (error) {
    if (o.signal.aborted) throw error
    return error as Error
  }
}

export async function probeServer(zone: string, name: string, address: string, o: ProbeOptions): Promise<ServerRow> {
  const row: ServerRow = { name, address, status: 'ok', rcode: null, authoritative: null, serial: null, ns: null, tcp: null, edns: null, recursion_available: null, axfr_allowed: null, asn: null, latency_ms: null, error: null }
  const verdict = checkTargetText(address, { allowLoopback: o.allowLoopback })
  if (!verdict.allowed) return { ...row, status: 'refused_target', error: verdict.reason }
  const [soa, edns, ns, tcp, rec, axfr] = await Promise.all([
    ask(o, address, zone, 'SOA'),
    ask(o, address, zone, 'SOA', { edns: true }),
    ask(o, address, zone, 'NS'),
    ask(o, address, zone, 'SOA', { tcp: true }),
    ask(o, address, zone, 'SOA', { recursionDesired: true }),
    ask(o, address, zone, 'AXFR', { tcp: true }),
  ])
  if (soa instanceof Error) return { ...row, status: 'unreachable', error: soa.message }
  row.rcode = soa.rcode
  row.authoritative = soa.flags.aa
  row.latency_ms = Math.round(soa.latencyMs * 10) / 10
  const record = soa.answers.find((r) => r.type === 'SOA' && clean(r.name) === zone)
  row.serial = record ? (record.data as { serial: number }).serial : null
  if (soa.rcode !== 'NOERROR' || !soa.flags.aa || record === undefined) {
    row.status = 'lame'
    row.error = soa.rcode !== 'NOERROR' ? `answered ${soa.rcode} for ${zone} SOA` : !soa.flags.aa ? `answered ${zone} SOA without the AA flag` : `gave no SOA record for ${zone}`
  }
  if (!(ns instanceof Error) && ns.rcode === 'NOERROR') {
    row.ns = ns.answers.filter((r) => r.type === 'NS' && clean(r.name) === zone).map((r) => clean((r.data as { target: string }).target)).sort()
  }
  row.tcp = !(tcp instanceof Error) && tcp.rcode === soa.rcode
  row.edns = !(edns instanceof Error) && edns.edns !== null && edns.rcode === soa.rcode
  row.recursion_available = rec instanceof Error ? null : rec.flags.ra
  row.axfr_allowed = !(axfr instanceof Error) && axfr.rcode === 'NOERROR' && axfr.answers.some((r) => r.type === 'SOA')
  return row
}
