import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DomainWhoisData } from '../../plugins/domain/domain-data.ts'

export default defineEndpoint({
  name: 'domain.whois',
  tag: 'domain',
  method: 'GET',
  path: '/api/domain/whois/:domain',
  queryAlias: ['domain'],
  summary: 'RDAP registration record: status codes with meanings, events, registrar (IANA id), registrant, contacts, abuse contact, name servers, DNSSEC delegation',
  params: z.object({ domain: DomainName }),
  data: DomainWhoisData,
  upstreams: ['rdap'],
  cache: { ttl: '1h' },
  cost: 2,
  lists: ['events', 'entities', 'nameservers', 'status', 'notices', 'remarks'],
  example: { domain: 'google.com' },
})
