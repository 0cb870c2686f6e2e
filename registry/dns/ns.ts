import { recordEndpoint } from '../../plugins/dns/record-endpoint.ts'

export default recordEndpoint('NS', 'Authoritative name servers', 'example.com')
