import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { SelectorsParam } from './schemas/dkim-data.ts'
import { HealthData } from './schemas/report-data.ts'

export default defineEndpoint({
  name: 'email.health',
  tag: 'email',
  method: 'GET',
  path: '/api/email/health/:domain',
  queryAlias: ['domain'],
  summary: 'Deliverability health: SPF, DKIM, DMARC, MX and STARTTLS on each MX, scored per part with findings',
  description:
    'Checks SPF, DKIM, DMARC and MX, and probes STARTTLS on up to 5 MX hosts in parallel (port 25: protocol, certificate trust and name), then scores each part 0-100 from its findings and grades the whole. Hosts on private or loopback addresses are reported, never connected to. Costs 5 units; cached up to 5 minutes.',
  params: z.object({ domain: DomainName, selectors: SelectorsParam }),
  data: HealthData,
  upstreams: ['dns', 'smtp'],
  cache: { ttl: '5m' },
  cost: 5,
  lists: ['findings'],
  csvRows: 'findings',
  example: { domain: 'example.com' },
})
