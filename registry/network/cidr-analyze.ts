import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { CidrParam } from '../../runtime/params/cidr.ts'
import { CidrAnalyzeData } from './schemas/network-data.ts'

export default defineEndpoint({
  name: 'network.cidr-analyze',
  tag: 'network',
  method: 'GET',
  // `**` so the block's "/" may arrive unencoded (/api/cidr/analyze/10.0.0.0/8) as well as %2F.
  path: '/api/cidr/analyze/**:cidr',
  queryAlias: ['cidr'],
  summary: 'Network, broadcast, usable range and host counts (RFC 3021 /31, /32, IPv6 /127, /128), masks, bit layout and IANA class of a CIDR block',
  description:
    "Computed locally, no upstream: the block's network and broadcast addresses, usable range, host counts as exact decimal strings (IPv6 counts exceed 2^53), masks, the bit layout, and the IANA special-purpose entries it lies in or contains. Host bits are reported rather than refused; the / may be sent unencoded.",
  params: z.object({ cidr: CidrParam }),
  data: CidrAnalyzeData,
  cache: false,
  cost: 1,
  lists: ['special_purpose', 'special_purpose_within'],
  example: { cidr: '192.168.1.77/24' },
})
