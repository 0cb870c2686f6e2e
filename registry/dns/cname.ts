import { recordEndpoint } from '../../plugins/dns/record-endpoint.ts'

export default recordEndpoint('CNAME', 'The CNAME record of a name (is it an alias, and of what)', 'www.example.com')
