import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { queryInt } from '../../runtime/params.ts'
import { BlockOffsetParam, CidrParam } from '../../runtime/params/cidr.ts'
import { EXPAND_DEFAULT_LIMIT, EXPAND_MAX_LIMIT } from './schemas/cidr-expand-limits.ts'
import { CidrExpandData } from './schemas/network-data.ts'

export default defineEndpoint({
  name: 'network.cidr-expand',
  tag: 'network',
  method: 'GET',
  path: '/api/cidr/expand/**:cidr',
  queryAlias: ['cidr'],
  summary: `The addresses of a CIDR block, ${EXPAND_DEFAULT_LIMIT} per page by default (at most ${EXPAND_MAX_LIMIT}), paged arithmetically: any block, IPv6 /0 included`,
  description:
    'Lists the addresses of a block one page at a time, computed arithmetically rather than built, so blocks of any size work: offset is a decimal string up to the size of the block, and meta.pagination carries the exact total. The endpoint pages itself (its own limit and offset). Runs in the CPU pool; never cached.',
  params: z.object({
    cidr: CidrParam,
    limit: queryInt({
      min: 1,
      max: EXPAND_MAX_LIMIT,
      default: EXPAND_DEFAULT_LIMIT,
      description: `addresses per page, 1-${EXPAND_MAX_LIMIT}`,
    }),
    offset: BlockOffsetParam,
  }),
  data: CidrExpandData,
  // Pages are cheap to compute and up to 4096 addresses each: caching them would
  // let one client fill the cache.
  cache: false,
  // A 4096-address IPv6 page is ~4-7 ms of CPU with its rendering: it runs in the
  // CPU pool, off the event loop.
  offload: true,
  unavailable: 'The CPU pool is busy: INFRALENS_CPU_QUEUE requests already wait for a worker (Retry-After says when to try again)',
  cost: 1,
  pagination: { total: 'total', limit: 'limit', offset: 'offset' },
  csvRows: 'addresses',
  example: { cidr: '192.0.2.0/28', limit: '8', offset: '4' },
})
