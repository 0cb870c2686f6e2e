import { recordEndpoint } from '../../plugins/dns/record-endpoint.ts'

export default recordEndpoint('MX', 'Mail exchanger records with preferences', 'example.com')
