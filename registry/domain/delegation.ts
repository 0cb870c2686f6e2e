import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DelegationData } from './schemas/delegation-data.ts'

export default defineEndpoint({
  name: 'domain.delegation',
  tag: 'domain',
  method: 'GET',
  path: '/api/domain/delegation/:domain',
  queryAlias: ['domain'],
  summary: 'Delegation health: the parent\'s referral from each parent server and every name server of the zone asked directly at each address (lame, SOA serials, NS set, EDNS0, TCP, open recursion, AXFR, AS and /24 diversity, DS against DNSKEY and RDAP)',
  description:
    'Reads the zone\'s NS set from the resolver, resolves each name server (A and AAAA) and asks every address itself, without recursion: the SOA (authoritative? which serial?), the SOA with an EDNS0 OPT record, the NS set, the SOA again over TCP, the same question with recursion desired (is recursion offered?) and an AXFR over TCP (is the zone handed out?), with each address\'s AS from the bundled offline data. The parent zone\'s servers (IPv4 and IPv6) are each asked for the referral (NS set and glue). The parent\'s DS RRset is matched against the zone\'s DNSKEY RRset and, when there is DS, against the registry\'s RDAP secureDNS (through /api/domain/whois). One row per address, and findings with stable ids, each naming the Zonemaster test case that checks the same thing. Cached up to 5 minutes.',
  params: z.object({ domain: DomainName }),
  data: DelegationData,
  upstreams: ['dns', 'rdap'],
  cache: { ttl: '5m' },
  cost: 5,
  lists: ['servers', 'findings'],
  csvRows: 'servers',
  example: { domain: 'infralens.test' },
})
