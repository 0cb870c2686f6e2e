import { recordEndpoint } from '../../plugins/dns/record-endpoint.ts'

export default recordEndpoint('A', 'IPv4 address records, CNAME chain followed, with TTLs', 'example.com')
