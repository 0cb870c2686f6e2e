import type { EmailDns, Lookup, MxValue, TxtValue } from '../../plugins/email/email-dns.ts'

// The RFC 7208 suite's `zonedata` as an EmailDns, with the conventions of its
// reference driver (pyspf test/testspf.py):
// - SPF-type records are copied to TXT unless the name lists a TXT entry itself
//   (`TXT: NONE` lists one that yields nothing);
// - a TIMEOUT entry makes a query time out unless a record of the asked type came
//   before it in the list;
// - CNAMEs are followed (at most 10); a name absent from the zone is NXDOMAIN.

type Entry = 'TIMEOUT' | { type: string; value: unknown }

export type ZoneData = Record<string, Array<'TIMEOUT' | Record<string, unknown>>>

function expand(entries: Array<'TIMEOUT' | Record<string, unknown>>): Entry[] {
  const out: Entry[] = []
  const generated: Entry[] = []
  let generate = true
  for (const item of entries) {
    if (item === 'TIMEOUT') {
      out.push('TIMEOUT')
      continue
    }
    for (const [type, value] of Object.entries(item)) {
      if (type === 'TXT') generate = false
      else if (type === 'SPF' && generate) generated.push({ type: 'TXT', value })
      if (value !== 'NONE') out.push({ type, value })
    }
  }
  return generate ? [...out, ...generated] : out
}

const txt = (value: unknown): TxtValue => {
  const strings = Array.isArray(value) ? value.map(String) : [String(value)]
  return { text: strings.join(''), strings }
}

export interface ZoneDns extends EmailDns {
  log: Array<{ name: string; type: string }>
}

export function zoneDns(zonedata: ZoneData): ZoneDns {
  const zone = new Map(Object.entries(zonedata).map(([name, entries]) => [name.toLowerCase().replace(/\.$/, ''), expand(entries)]))
  const log: Array<{ name: string; type: string }> = []

  function lookup<T>(name: string, type: string, pick: (value: unknown) => T, depth = 0): Lookup<T> {
    log.push({ name, type })
    const key = name.toLowerCase().replace(/\.$/, '')
    const entries = zone.get(key)
    if (!entries) return { status: 'nxdomain', records: [], ttl: 300, chain: [] }
    const records: T[] = []
    for (const entry of entries) {
      if (entry === 'TIMEOUT') {
        if (records.length === 0) return { status: 'error', records: [], ttl: null, chain: [], error: 'timed out' }
        continue
      }
      if (entry.type === 'CNAME' && type !== 'CNAME') {
        if (depth >= 10) return { status: 'error', records: [], ttl: null, chain: [], error: 'CNAME loop' }
        const next = lookup(String(entry.value), type, pick, depth + 1)
        return { ...next, chain: [String(entry.value), ...next.chain] }
      }
      if (entry.type === type) records.push(pick(entry.value))
    }
    return { status: records.length ? 'answer' : 'nodata', records, ttl: 300, chain: [] }
  }

  const wrap =
    <T>(type: string, pick: (value: unknown) => T) =>
    async (name: string): Promise<Lookup<T>> =>
      lookup(name, type, pick)

  return {
    log,
    txt: wrap('TXT', txt),
    a: wrap('A', String),
    aaaa: wrap('AAAA', String),
    mx: wrap('MX', (v): MxValue => {
      const [preference, exchange] = v as [number, string]
      return { preference, exchange }
    }),
    ptr: wrap('PTR', String),
  }
}
