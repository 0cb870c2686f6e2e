import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DomainWhoisData } from './schemas/domain-data.ts'

export default defineEndpoint({
  name: 'domain.whois',
  tag: 'domain',
  method: 'GET',
  path: '/api/domain/whois/:domain',
  queryAlias: ['domain'],
  summary: 'RDAP registration record: status codes with meanings, events, registrar (IANA id), registrant, contacts, abuse contact, name servers, DNSSEC delegation',
  description:
    "The registration record from RDAP, the structured successor of WHOIS, normalized: EPP status codes with their meanings, events in UTC, entities with their vCards parsed, name servers with glue, and the DS data. A thin .com/.net registry record is completed from the registrar's RDAP server. An RDAP 404 is a 404, an RDAP failure a 502 with details.reason. Cached an hour.",
  params: z.object({ domain: DomainName }),
  data: DomainWhoisData,
  upstreams: ['rdap'],
  cache: { ttl: '1h' },
  cost: 2,
  lists: ['events', 'entities', 'nameservers', 'status', 'notices', 'remarks'],
  example: { domain: 'google.com' },
})
