import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { SelectorsParam } from './schemas/dkim-data.ts'
import { DiagnoseData } from './schemas/report-data.ts'

export default defineEndpoint({
  name: 'email.diagnose',
  tag: 'email',
  method: 'GET',
  path: '/api/email/diagnose/:domain',
  queryAlias: ['domain'],
  summary: 'Full deliverability diagnostic: health plus MTA-STS (record and HTTPS policy against the real MX hosts), TLS-RPT, BIMI and MX reverse DNS, with prioritized findings',
  description:
    "Everything /api/email/health checks, plus MTA-STS (the _mta-sts record and the HTTPS policy fetched from mta-sts.<domain> as senders do, matched against the real MX hosts), TLS-RPT, BIMI and the MX hosts' reverse DNS, with findings in order of priority. Probes run side by side within the request deadline, so a silent host is a finding rather than a 504. Costs 10 units; cached up to 5 minutes.",
  params: z.object({ domain: DomainName, selectors: SelectorsParam }),
  data: DiagnoseData,
  upstreams: ['dns', 'smtp', 'mta-sts'],
  cache: { ttl: '5m' },
  cost: 10,
  lists: ['findings'],
  csvRows: 'findings',
  example: { domain: 'example.com' },
})
