import { recordEndpoint } from '../../plugins/dns/record-endpoint.ts'

export default recordEndpoint('TXT', 'TXT records, strings unquoted and joined (RFC 7208 §3.3)', 'example.com')
