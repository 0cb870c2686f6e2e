import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DomainAgeData } from '../../plugins/domain/domain-data.ts'

export default defineEndpoint({
  name: 'domain.age',
  tag: 'domain',
  method: 'GET',
  path: '/api/domain/age/:domain',
  queryAlias: ['domain'],
  summary: 'Age of the domain in days and years, from its RDAP registration event, and days to expiry',
  params: z.object({ domain: DomainName }),
  data: DomainAgeData,
  upstreams: ['rdap'],
  cache: { ttl: '1h' },
  cost: 1,
  example: { domain: 'google.com' },
})
