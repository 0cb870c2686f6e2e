import { recordEndpoint } from '../../plugins/dns/record-endpoint.ts'

export default recordEndpoint('MX', {
  summary: 'Mail exchanger records with preferences',
  description:
    'Returns the name\'s MX records as the resolver gives them, each with its preference (lower is tried first) and exchange host; a null MX (exchange ".") says the domain takes no mail. For each host resolved and checked, see /api/email/mx.',
  example: 'example.com',
})
