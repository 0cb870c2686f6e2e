import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { SelectorsParam } from '../../plugins/email/dkim/dkim-data.ts'
import { DiagnoseData } from '../../plugins/email/report-data.ts'

export default defineEndpoint({
  name: 'email.diagnose',
  tag: 'email',
  method: 'GET',
  path: '/api/email/diagnose/:domain',
  queryAlias: ['domain'],
  summary: 'Full deliverability diagnostic: health plus MTA-STS (record and HTTPS policy against the real MX hosts), TLS-RPT, BIMI and MX reverse DNS, with prioritized findings',
  params: z.object({ domain: DomainName, selectors: SelectorsParam }),
  data: DiagnoseData,
  upstreams: ['dns', 'smtp', 'mta-sts'],
  cache: { ttl: '5m' },
  cost: 10,
  lists: ['findings'],
  csvRows: 'findings',
  example: { domain: 'example.com' },
})
