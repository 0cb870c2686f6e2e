import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { MxData } from '../../plugins/email/mx/mx-data.ts'

export default defineEndpoint({
  name: 'email.mx',
  tag: 'email',
  method: 'GET',
  path: '/api/email/mx/:domain',
  queryAlias: ['domain'],
  summary: 'Mail exchangers by preference, each resolved and forward-confirmed (FCrDNS); null MX, aliases and address-less hosts flagged',
  params: z.object({ domain: DomainName }),
  data: MxData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['records', 'findings'],
  csvRows: 'records',
  example: { domain: 'example.com' },
})
