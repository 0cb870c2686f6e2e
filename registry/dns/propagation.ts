import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { PropagationData } from './schemas/dns-data.ts'
import { queryEnum } from '../../runtime/params.ts'

export const PROPAGATION_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME', 'SOA', 'CAA', 'DS', 'DNSKEY', 'HTTPS', 'SRV', 'PTR'] as const

export default defineEndpoint({
  name: 'dns.propagation',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/propagation/:domain',
  queryAlias: ['domain'],
  summary: 'Asks every configured public resolver at once: per-resolver answer, TTL, latency, errors, and whether they agree',
  description:
    'Sends one question to every resolver of INFRALENS_PROPAGATION_RESOLVERS in parallel and groups identical answers; `consistent` says whether they all agree. A resolver that times out or refuses is reported in its row (`error`) and left out of the groups; only when every resolver fails is the answer a 502. Cached 30 seconds. Costs 5 units.',
  params: z.object({
    domain: DomainName,
    type: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), queryEnum(PROPAGATION_TYPES, { default: 'A', description: 'record type to compare' })),
  }),
  data: PropagationData,
  upstreams: ['dns'],
  cache: { ttl: '30s' },
  cost: 5,
  lists: ['results', 'groups'],
  csvRows: 'results',
  example: { domain: 'example.com', type: 'A' },
})
