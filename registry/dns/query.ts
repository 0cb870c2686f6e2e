import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { queryBoolean } from '../../runtime/params/query-boolean.ts'
import { DnsQueryData, RECORD_ANSWERS } from './schemas/dns-data.ts'
import { recordTypeParam } from './schemas/record-type.ts'

export default defineEndpoint({
  name: 'dns.query',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/query/:domain',
  queryAlias: ['domain'],
  summary: 'Any record type the service decodes (SRV, TLSA, HTTPS, NAPTR, SSHFP, URI, DS, ...), optionally with our DNSSEC verdict on the RRset',
  description:
    'Asks the configured resolvers for `type` at the name and returns the records decoded into fields, as the per-type endpoints do (CNAME chain followed). With `dnssec=true` the RRset (or the proof that there is none) is also validated by the service itself from the trust anchor down, as /api/dns/dnssec does for that type, and `dnssec` holds the verdict (secure, insecure, bogus, indeterminate) and why. A type the service cannot decode is a 400 that lists the ones it can. ' +
    RECORD_ANSWERS +
    ' With dnssec=true, a bogus or indeterminate verdict is kept 30 s.',
  params: z.object({
    domain: DomainName,
    type: recordTypeParam({ default: 'A', description: 'The record type to ask for' }),
    dnssec: queryBoolean({ default: false, description: 'Also validate the answer with DNSSEC (the chain of trust from the trust anchor)' }),
  }),
  data: DnsQueryData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: '_sip._tcp.example.com', type: 'SRV' },
})
