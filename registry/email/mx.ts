import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { MxData } from './schemas/mx-data.ts'

export default defineEndpoint({
  name: 'email.mx',
  tag: 'email',
  method: 'GET',
  path: '/api/email/mx/:domain',
  queryAlias: ['domain'],
  summary: 'Mail exchangers by preference, each resolved and forward-confirmed (FCrDNS); null MX, aliases and address-less hosts flagged',
  description:
    "Returns the domain's MX records by preference, resolves each host's addresses and checks that each address's PTR name resolves back to it. A null MX (RFC 7505), an implicit MX (no MX, only an address), CNAME or IP-literal targets and private addresses are findings. Cached up to 5 minutes.",
  params: z.object({ domain: DomainName }),
  data: MxData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['records', 'findings'],
  csvRows: 'records',
  example: { domain: 'example.com' },
})
