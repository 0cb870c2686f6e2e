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
  summary: 'Registration record (RDAP, or WHOIS where the TLD has none): status codes with meanings, events, registrar (IANA id), registrant, contacts, abuse contact, name servers, DNSSEC delegation',
  description:
    "The registration record, normalized: EPP status codes with their meanings, events in UTC, entities with their vCards parsed, name servers with glue, and the DS data. From RDAP, the structured successor of WHOIS, where the IANA bootstrap names an RDAP service for the TLD; otherwise from the TLD's port-43 WHOIS server (named by IANA's WHOIS), parsed from text into the same fields where the text carries them, with `source: \"whois\"` and the raw text in `whois.raw`. A thin registry record is completed from the registrar (its RDAP server, or its WHOIS server: one hop). A registry's 404 or \"no match\" is a 404, a failure a 502 with details.reason. Cached an hour.",
  params: z.object({ domain: DomainName }),
  data: DomainWhoisData,
  upstreams: ['rdap', 'whois'],
  cache: { ttl: '1h' },
  cost: 2,
  lists: ['events', 'entities', 'nameservers', 'status', 'notices', 'remarks'],
  example: { domain: 'google.com' },
})
