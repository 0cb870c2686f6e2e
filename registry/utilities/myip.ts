import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'utilities.myip',
  tag: 'utilities',
  method: 'GET',
  path: '/api/myip',
  summary: "The caller's IP address as the service sees it",
  description:
    "Returns the client address this request came from: the connection's peer, or the address a trusted proxy (INFRALENS_TRUST_PROXY) put in X-Forwarded-For, with its IP version. It is the address anonymous rate limits count against. Never cached.",
  params: z.object({}),
  data: z.object({ ip: z.string(), version: z.union([z.literal(4), z.literal(6)]).nullable() }),
  cache: false,
  cost: 1,
})
