import { recordEndpoint } from '../../plugins/dns/record-endpoint.ts'

export default recordEndpoint('CNAME', {
  summary: 'The CNAME record of a name (is it an alias, and of what)',
  description:
    'Asks the configured resolvers whether the name is an alias: a CNAME record names its target, and NODATA means the name is not an alias (it may still have other records).',
  example: 'www.example.com',
})
