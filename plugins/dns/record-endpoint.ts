import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsRecordsData } from './dns-data.ts'

export const RECORD_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME'] as const
export type RecordType = (typeof RECORD_TYPES)[number]

/** What every record endpoint's answer shares, said once after each one's own description. */
const RECORD_ANSWERS =
  'NXDOMAIN and NODATA are 200 answers (`status` says which) and SERVFAIL is a 200 cached 30 s; a resolver that times out or answers REFUSED is a 502 upstream_error. ' +
  'Answers are cached for their smallest TTL, at most 5 minutes.'

export interface RecordEndpointText {
  summary: string
  /** What this type's answer holds; the shared outcomes and caching are added. */
  description: string
  example: string
}

/** The descriptor of one /api/dns/<type>/{domain} endpoint; all six share a shape. */
export function recordEndpoint<const T extends RecordType>(type: T, { summary, description, example }: RecordEndpointText) {
  return defineEndpoint({
    name: `dns.${type.toLowerCase()}`,
    tag: 'dns',
    method: 'GET',
    path: `/api/dns/${type.toLowerCase()}/:domain`,
    queryAlias: ['domain'],
    summary,
    description: `${description} ${RECORD_ANSWERS}`,
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
