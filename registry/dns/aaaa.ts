import { recordEndpoint } from '../../plugins/dns/record-endpoint.ts'

export default recordEndpoint('AAAA', 'IPv6 address records, CNAME chain followed, with TTLs', 'example.com')
