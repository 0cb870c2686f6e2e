import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import type { RecordsAnswer } from '../dns/surface.ts'
import { cacheTtlOf, resolveRecords } from '../dns/surface.ts'

// The DNS half of domain intelligence: NS, MX, TXT (SPF), _dmarc TXT and CAA,
// queried in parallel. Each query may fail on its own; the caller reports the
// failed parts instead of failing the answer.

export type Outcome = { ok: true; answer: RecordsAnswer } | { ok: false; error: string }

export interface DnsSignals {
  ns: Outcome
  mx: Outcome
  txt: Outcome
  dmarc: Outcome
  caa: Outcome
  /** The smallest cache TTL the answers allow. */
  ttl: number
}

const QUERIES = [
  ['ns', '', 'NS'],
  ['mx', '', 'MX'],
  ['txt', '', 'TXT'],
  ['dmarc', '_dmarc.', 'TXT'],
  ['caa', '', 'CAA'],
] as const

export async function collectDnsSignals(dns: DnsClient, domain: string, signal: AbortSignal): Promise<DnsSignals> {
  const settled = await Promise.allSettled(QUERIES.map(([, prefix, type]) => resolveRecords(dns, `${prefix}${domain}`, type, signal)))
  let ttl = Infinity
  const out: Partial<Record<(typeof QUERIES)[number][0], Outcome>> = {}
  settled.forEach((s, i) => {
    const part = QUERIES[i]![0]
    if (s.status === 'fulfilled') {
      out[part] = { ok: true, answer: s.value }
      ttl = Math.min(ttl, cacheTtlOf(s.value))
    } else {
      out[part] = { ok: false, error: (s.reason as Error).message }
      ttl = Math.min(ttl, 30)
    }
  })
  return { ns: out.ns!, mx: out.mx!, txt: out.txt!, dmarc: out.dmarc!, caa: out.caa!, ttl: Number.isFinite(ttl) ? ttl : 60 }
}

/** Record data of the asked type (the client's camelCase data, not the presented form). */
export function dataOf<T>(outcome: Outcome): T[] | null {
  return outcome.ok ? outcome.answer.raw.map((r) => r.data as unknown as T) : null
}
