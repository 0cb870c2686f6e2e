import { recordEndpoint } from '../../plugins/dns/record-endpoint.ts'

export default recordEndpoint('TXT', {
  summary: 'TXT records, strings unquoted and joined (RFC 7208 §3.3)',
  description:
    'Returns every TXT record of the name (SPF, domain verification tokens and the like), each as `text` with its character-strings joined without a space, the way SPF and DMARC read them, and as the separate `strings`.',
  example: 'example.com',
})
