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
  summary: 'Age of the domain in days and years, from its registration date (RDAP, or WHOIS where the TLD has no RDAP), and days to expiry',
  description:
    "Reads the registration and expiration dates of the domain's record — from the registry's RDAP server (found through the IANA bootstrap files), or for a TLD without RDAP from its port-43 WHOIS server (IANA's referral), `source` saying which — and computes the age in days and years and the days left before it expires. An unregistered domain is a 404; a registry server that fails is a 502. Cached an hour.",
  params: z.object({ domain: DomainName }),
  data: DomainAgeData,
  upstreams: ['rdap', 'whois'],
  cache: { ttl: '1h' },
  cost: 1,
  example: { domain: 'google.com' },
})
