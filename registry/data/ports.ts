import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { queryInt } from '../../runtime/params.ts'
import { PortsData } from './schemas/data-schemas.ts'

export default defineEndpoint({
  name: 'data.ports',
  tag: 'data',
  method: 'GET',
  path: '/api/data/ports',
  summary: 'Well-known ports and their services, filtered by `port`, `service` (name or alias) and `protocol`',
  description:
    "Reads the service names and port numbers of the host's /etc/services (else a bundled copy of Debian's netbase list): each service with its port, transport protocols, aliases and description. The filters combine; a filter nothing matches is a 200 with an empty list.",
  params: z.object({
    port: queryInt({ min: 0, max: 65_535, description: 'only this port number' }).optional(),
    service: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(64, 'must be at most 64 characters')
      .optional()
      .meta({ description: 'only this service, by name or alias, case-insensitive (ssh, http, www)' }),
    protocol: z
      .preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(['tcp', 'udp', 'sctp', 'ddp'], { error: () => 'must be one of tcp, udp, sctp, ddp' }))
      .optional()
      .meta({ description: 'only services registered for this transport' }),
  }),
  data: PortsData,
  cache: { ttl: '1h' },
  cost: 1,
  lists: ['ports'],
  csvRows: 'ports',
  example: { service: 'https' },
})
