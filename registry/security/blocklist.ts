import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { IpAddressParam } from '../../runtime/params/ip-address.ts'
import { IpBlocklistData } from './schemas/blocklist-data.ts'

export default defineEndpoint({
  name: 'security.blocklist',
  tag: 'security',
  method: 'GET',
  path: '/api/security/blocklist/:ip',
  queryAlias: ['ip'],
  summary: 'DNSBL listing of an IP on the configured lists (INFRALENS_DNSBL_ZONES), asked in parallel, return codes decoded per list with the TXT reason',
  description:
    'A list that fails, or answers that it refuses the query (Spamhaus 127.255.255.x: public resolver or rate limit), is reported in its row as an error, never as listed; when every list fails the answer is 502. 127.0.0.2 is the test entry most lists carry.',
  params: z.object({ ip: IpAddressParam }),
  data: IpBlocklistData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['lists'],
  csvRows: 'lists',
  example: { ip: '127.0.0.2' },
})
