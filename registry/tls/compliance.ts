import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { ProfileParam } from './schemas/compliance-data.ts'
import { TlsHostParam } from './schemas/host-param.ts'
import { StarttlsParam } from './schemas/starttls-param.ts'
import { TlsComplianceData } from './schemas/tls-compliance-data.ts'

export default defineEndpoint({
  name: 'tls.compliance',
  tag: 'tls',
  method: 'GET',
  path: '/api/tls/compliance/:host',
  queryAlias: ['host'],
  summary: "Compliance with Mozilla's server-side TLS profiles (modern, intermediate, old): every deviation with its profile, field, what the profile expects and what the server does",
  description:
    "The compliance part of /api/tls/analyze on its own (the same analysis, shared through its cache), against the profiles of Mozilla's server-side TLS guidelines JSON as the service loaded it (INFRALENS_TLS_PROFILES_URL or INFRALENS_TLS_PROFILES_FILE; the answer names its version, href, source and when it was read). One row per deviation in CSV. 503 when no guidelines document can be had, 404 when it has no such profile. Costs 10 units; cached 15 minutes.",
  params: z.object({ host: TlsHostParam, profile: ProfileParam, starttls: StarttlsParam }),
  data: TlsComplianceData,
  upstreams: ['tls'],
  unavailable: 'No guidelines document could be read (INFRALENS_TLS_PROFILES_URL unreachable, refused by the guard, or not in the guidelines schema; or INFRALENS_TLS_PROFILES_FILE unreadable): details.reason says why.',
  cache: { ttl: '15m' },
  cost: 10,
  lists: ['deviations', 'profiles'],
  csvRows: 'deviations',
  example: { host: 'valid.tls.test:8443' },
})
