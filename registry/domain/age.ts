import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DomainAgeData } from './schemas/domain-data.ts'

export default defineEndpoint({
  name: 'domain.age',
  tag: 'domain',
  method: 'GET',
  path: '/api/domain/age/:domain',
  queryAlias: ['domain'],
  summary: 'Age of the domain in days and years, from its RDAP registration event, and days to expiry',
  description:
    "Reads the registration and expiration events of the domain's RDAP record (the registry's server, found through the IANA bootstrap files) and computes the age in days and years and the days left before it expires. A TLD without an RDAP service is a 404; an RDAP server that fails is a 502. Cached an hour.",
  params: z.object({ domain: DomainName }),
  data: DomainAgeData,
  upstreams: ['rdap'],
  cache: { ttl: '1h' },
  cost: 1,
  example: { domain: 'google.com' },
})
