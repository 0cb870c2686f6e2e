import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsRecordsData } from './dns-data.ts'

export const RECORD_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME'] as const
export type RecordType = (typeof RECORD_TYPES)[number]

/** The descriptor of one /api/dns/<type>/{domain} endpoint; all six share a shape. */
export function recordEndpoint<const T extends RecordType>(type: T, summary: string, example: string) {
  return defineEndpoint({
    name: `dns.${type.toLowerCase()}`,
    tag: 'dns',
    method: 'GET',
    path: `/api/dns/${type.toLowerCase()}/:domain`,
    queryAlias: ['domain'],
    summary,
    params: z.object({ domain: DomainName }),
    data: DnsRecordsData,
    upstreams: ['dns'],
    cache: { ttl: '5m' },
    cost: 1,
    lists: ['records'],
    csvRows: 'records',
    example: { domain: example },
  })
}
