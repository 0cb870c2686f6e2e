import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DomainRegistrarData } from '../../plugins/domain/domain-data.ts'

export default defineEndpoint({
  name: 'domain.registrar',
  tag: 'domain',
  method: 'GET',
  path: '/api/domain/registrar/:domain',
  queryAlias: ['domain'],
  summary: 'The registrar of a domain (name, IANA id, abuse contact), from the registry RDAP record',
  params: z.object({ domain: DomainName }),
  data: DomainRegistrarData,
  upstreams: ['rdap'],
  cache: { ttl: '1h' },
  cost: 1,
  example: { domain: 'google.com' },
})
