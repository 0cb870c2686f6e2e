import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { IpBulkData, IpListBody } from './schemas/ip-bulk-data.ts'

export default defineEndpoint({
  name: 'network.ip-bulk',
  tag: 'network',
  method: 'POST',
  path: '/api/ip/bulk',
  summary: 'Up to 100,000 addresses at once: ASN, organization, country, IANA class, bogon verdict, prefix and RPKI state of each',
  description:
    'Answered locally from the bundled ASN and country data and the loaded VRP set (no upstream call per address): the same facts /api/ip/{ip} gives, per address, in the order sent. A bad entry is that entry\'s error, never the request\'s. `prefix` is the block of the data\'s range that holds the address (for IPv4 mostly the announced prefix; not a live BGP lookup, docs/ip.md says what it is), and `rpki` the state of (prefix, asn). `Accept: application/x-ndjson` streams one line per address; format=csv gives one row each. More than 100,000 entries is 413.',
  params: z.object({ body: IpListBody }),
  data: IpBulkData,
  body: { kind: 'json-or-lines', maxBytes: 8 * 1024 * 1024 },
  cache: false,
  unavailable: 'The bundled ASN and country data has not loaded (or failed to load)',
  cost: 1,
  inputCost: '1 per 1,000 addresses (rounded up), charged before anything runs',
  lists: ['results'],
  csvRows: 'results',
  stream: 'results',
  preEncoded: 'results',
  example: { body: '["8.8.8.8", "1.1.1.1", "2001:4860:4860::8888", "192.0.2.1", "10.0.0.300"]' },
})
