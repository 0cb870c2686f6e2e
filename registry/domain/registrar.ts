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
  summary: 'The registrar of a domain (name, IANA id, abuse contact), from the registry\'s RDAP record or WHOIS answer',
  description:
    "Reads the registry's RDAP record of the domain (its server found through the IANA bootstrap files) — or, for a TLD without RDAP, its port-43 WHOIS answer (`source: \"whois\"`) — and returns the sponsoring registrar: name, IANA id, and abuse contact (the abuse role, else an abuse@ mailbox marked inferred). Many ccTLD WHOIS servers name no registrar: then it is null. Cached an hour.",
  params: z.object({ domain: DomainName }),
  data: DomainRegistrarData,
  upstreams: ['rdap', 'whois'],
  cache: { ttl: '1h' },
  cost: 1,
  example: { domain: 'google.com' },
})
