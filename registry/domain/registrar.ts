import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DomainRegistrarData } from './schemas/domain-data.ts'

export default defineEndpoint({
  name: 'domain.registrar',
  tag: 'domain',
  method: 'GET',
  path: '/api/domain/registrar/:domain',
  queryAlias: ['domain'],
  summary: 'The registrar of a domain (name, IANA id, abuse contact), from the registry RDAP record',
  description:
    "Reads the registry's RDAP record of the domain (its server found through the IANA bootstrap files) and returns the sponsoring registrar: name, IANA id from publicIds, and abuse contact (the abuse role, else an abuse@ mailbox marked inferred). A TLD without an RDAP service is a 404. Cached an hour.",
  params: z.object({ domain: DomainName }),
  data: DomainRegistrarData,
  upstreams: ['rdap'],
  cache: { ttl: '1h' },
  cost: 1,
  example: { domain: 'google.com' },
})
