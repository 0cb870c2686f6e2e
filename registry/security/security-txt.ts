import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { SecurityTxtData } from './schemas/security-txt-data.ts'
import { SecurityTxtHostParam } from './schemas/security-txt-param.ts'

export default defineEndpoint({
  name: 'security.security-txt',
  tag: 'security',
  method: 'GET',
  path: '/api/security/security-txt/:domain',
  queryAlias: ['domain'],
  summary: 'RFC 9116 security.txt: fetched from /.well-known/security.txt (then /security.txt) over https, parsed and validated',
  description:
    'Checks Contact and Expires (required), expiry, Canonical against the URL it came from, https URIs, repeated fields, Content-Type, and detects an OpenPGP signature (not verified). Not found is a 200 with found: false.',
  params: z.object({ domain: SecurityTxtHostParam }),
  data: SecurityTxtData,
  upstreams: ['web'],
  cache: { ttl: '1h' },
  cost: 2,
  lists: ['findings', 'fields', 'contact'],
  csvRows: 'fields',
  example: { domain: 'example.net:8443' },
})
