import type { Lookup, TxtValue } from '../email-dns.ts'
import { isSpfRecord } from './spf-parse.ts'

// Record selection (RFC 7208 §4.5): of the TXT records at a name, those that begin
// with "v=spf1" followed by a space or the end; none is "none", more than one is a
// permerror. Type SPF (99) records are not asked for (removed by RFC 7208 §3.1).

export type SpfSelection =
  | { status: 'found'; record: TxtValue; txt: TxtValue[] }
  | { status: 'none'; txt: TxtValue[]; nxdomain: boolean }
  | { status: 'multiple'; records: TxtValue[]; txt: TxtValue[] }
  | { status: 'error'; error: string }

export function selectSpf(lookup: Lookup<TxtValue>): SpfSelection {
  if (lookup.status === 'error') return { status: 'error', error: lookup.error ?? 'DNS error' }
  const txt = lookup.records
  const spf = txt.filter((r) => isSpfRecord(r.text))
  if (spf.length === 0) return { status: 'none', txt, nxdomain: lookup.status === 'nxdomain' }
  if (spf.length > 1) return { status: 'multiple', records: spf, txt }
  return { status: 'found', record: spf[0]!, txt }
}

/**
 * An estimate of the UDP answer carrying every TXT record at the name: header,
 * question, one compressed-owner RR per record, and an EDNS OPT record. RFC 7208
 * §3.4 asks that it fit in 512 octets so resolvers without EDNS need no TCP retry.
 */
export function estimateTxtResponseBytes(name: string, txt: readonly TxtValue[]): number {
  const qname = name.replace(/\.$/, '').split('.').reduce((n, label) => n + 1 + Buffer.byteLength(label), 1)
  const rdata = (r: TxtValue) => r.strings.reduce((n, s) => n + 1 + Buffer.byteLength(s), 0)
  return 12 + qname + 4 + txt.reduce((n, r) => n + 2 + 10 + rdata(r), 0) + 11
}
