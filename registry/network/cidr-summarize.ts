import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { CidrListBody } from '../../runtime/params/cidr-list.ts'
import { CidrSummarizeData } from './schemas/network-data.ts'

export default defineEndpoint({
  name: 'network.cidr-summarize',
  tag: 'network',
  method: 'POST',
  path: '/api/cidr/summarize',
  summary: 'The smallest set of CIDR blocks covering exactly the given blocks (IPv4 and IPv6 mixed, up to 100,000 entries or 4 MiB), with invalid entries and reasons',
  description:
    'Body: {"cidrs": [...]}, a JSON array, or text with one block per line (lines starting with # are skipped). ' +
    'Bare addresses are single-address blocks; host bits are cleared and counted. More than 100,000 entries is 413.',
  params: z.object({ body: CidrListBody }),
  data: CidrSummarizeData,
  body: { kind: 'json-or-lines', maxBytes: 4 * 1024 * 1024 },
  cache: false,
  // Tens of ms of CPU at its bounds: runs in the CPU pool, off the event loop.
  offload: true,
  unavailable: 'The CPU pool is busy: INFRALENS_CPU_QUEUE requests already wait for a worker (Retry-After says when to try again)',
  cost: 5,
  lists: ['ipv4', 'ipv6', 'invalid'],
  example: { body: '{"cidrs":["192.0.2.0/25","192.0.2.128/25","198.51.100.7","2001:db8::/33","2001:db8:8000::/33","10.0.0.300"]}' },
})
