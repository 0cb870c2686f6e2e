import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { EmailNetworksData } from './schemas/networks-data.ts'

export default defineEndpoint({
  name: 'email.networks',
  tag: 'email',
  method: 'GET',
  path: '/api/email/networks/:domain',
  queryAlias: ['domain'],
  summary: "Mail sender networks: every network the domain's SPF record authorizes (through its includes) with holder, size, RPKI state and blocklist status; the MX hosts' addresses with blocklists, PTR/FCrDNS, RPKI and STARTTLS in one table",
  description:
    'Reads the SPF tree (/api/email/spf) and the mail exchangers (/api/email/mx), then asks, for each authorized network and each MX address, the RDAP holder (/api/whois/ip), the covering route and its RPKI state (/api/network/intelligence) and the DNSBLs (/api/security/blocklist: a single address, or the first address of a larger network, marked sampled), and probes STARTTLS on each MX host. Findings: listed networks or MX addresses, RPKI-invalid routes, bogon or very large SPF networks, unannounced SPF networks, MX addresses without FCrDNS or hosts without STARTTLS. At most 16 networks and 16 MX addresses are asked about. A part that fails is an entry in `errors`; such an answer is cached 60 seconds. Costs 10 units.',
  params: z.object({ domain: DomainName }),
  data: EmailNetworksData,
  upstreams: ['dns', 'rdap', 'ripestat', 'rpki', 'smtp'],
  cache: { ttl: '5m' },
  cost: 10,
  lists: ['networks', 'mx', 'findings', 'errors', 'skipped'],
  csvRows: 'networks',
  example: { domain: 'example.com' },
})
