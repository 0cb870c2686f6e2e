import { recordEndpoint } from '../../plugins/dns/record-endpoint.ts'

export default recordEndpoint('AAAA', {
  summary: 'IPv6 address records, CNAME chain followed, with TTLs',
  description:
    "Asks the configured resolvers (INFRALENS_DNS_RESOLVERS) for the name's AAAA records; when the name is an alias, the answer follows the CNAME chain and lists it in `chain`, with the final `canonical_name`.",
  example: 'example.com',
})
