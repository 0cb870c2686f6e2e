import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DomainIntelligenceData } from './schemas/domain-data.ts'

export default defineEndpoint({
  name: 'domain.intelligence',
  tag: 'domain',
  method: 'GET',
  path: '/api/domain/intelligence/:domain',
  queryAlias: ['domain'],
  summary: 'Registrar, age, status, DNSSEC delegation, name servers, MX/SPF/DMARC presence and CAA, with findings by severity',
  description:
    'Combines the registration record (registrar, age, expiry, status, DNSSEC delegation; from RDAP, or WHOIS where the TLD has no RDAP) with DNS queries for NS, MX, SPF, DMARC and CAA, and turns them into findings by severity, such as an expiring registration or a missing DMARC record. Each part degrades on its own into `errors` instead of failing the call. Cached up to 5 minutes; costs 5 units.',
  params: z.object({ domain: DomainName }),
  data: DomainIntelligenceData,
  upstreams: ['rdap', 'whois', 'dns'],
  cache: { ttl: '5m' },
  cost: 5,
  lists: ['findings', 'errors'],
  csvRows: 'findings',
  example: { domain: 'google.com' },
})
