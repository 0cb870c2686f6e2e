import type { DnsRecord } from '../../runtime/net/dns/dns-records.ts'

// API records are flat and snake_case: {name, type, ttl, address} rather than the
// client's {name, type, class, ttl, data: {...}} in camelCase, so fields sort, filter
// and become CSV columns directly.

export type PresentedRecord = { name: string; type: string; ttl: number } & Record<string, unknown>

const snake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snake(k), snakeKeys(v)]))
}

export function presentRecord(record: DnsRecord): PresentedRecord {
  return { name: record.name, type: record.type, ttl: record.ttl, ...(snakeKeys(record.data) as Record<string, unknown>) }
}

/** The value resolvers are compared on (propagation): the record without name and TTL. */
export function recordValue(record: DnsRecord): string {
  const d = record.data as unknown as Record<string, unknown>
  switch (record.type) {
    case 'A':
    case 'AAAA':
      return String(d.address)
    case 'MX':
      return `${String(d.preference)} ${String(d.exchange).toLowerCase()}`
    case 'TXT':
      return String(d.text)
    case 'NS':
    case 'CNAME':
    case 'PTR':
    case 'DNAME':
      return String(d.target).toLowerCase()
    case 'SOA':
      return `${String(d.mname).toLowerCase()} ${String(d.rname).toLowerCase()} ${String(d.serial)}`
    case 'CAA':
      return `${String(d.flags)} ${String(d.tag)} ${JSON.stringify(d.value)}`
    default:
      return JSON.stringify(d)
  }
}
