import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DependenciesData } from './schemas/dependencies-data.ts'

export default defineEndpoint({
  name: 'domain.dependencies',
  tag: 'domain',
  method: 'GET',
  path: '/api/domain/dependencies/:domain',
  queryAlias: ['domain'],
  summary: "Every address the domain's name servers, mail exchangers and web hosts (apex, www) resolve to, each with AS, organization, announced prefix, RPKI state, anycast and bogon verdict, with findings",
  description:
    'Resolves the NS and MX hosts, the apex and www (A and AAAA), and asks /api/network/intelligence about each address once. Findings: all name servers in one AS or in one /24 (/48); a dependency in RPKI-invalid, unannounced or bogon space. A failed DNS question or address lookup is an entry in `errors` (of the answer or of its row), never the whole answer; such an answer is cached 60 seconds. At most 32 addresses are asked about. Costs 10 units.',
  params: z.object({ domain: DomainName }),
  data: DependenciesData,
  upstreams: ['dns', 'ripestat', 'rpki'],
  cache: { ttl: '5m' },
  cost: 10,
  lists: ['dependencies', 'lookups', 'findings', 'errors', 'skipped'],
  csvRows: 'dependencies',
  example: { domain: 'infralens.test' },
})
