import { recordEndpoint } from '../../plugins/dns/record-endpoint.ts'

export default recordEndpoint('NS', {
  summary: 'Authoritative name servers',
  description:
    'Returns the NS records the zone publishes for the name, as the configured resolver sees them. To compare them with the delegation at the registry, see /api/domain/nameservers.',
  example: 'example.com',
})
