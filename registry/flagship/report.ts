import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { HttpsPortParam } from './schemas/port-param.ts'
import { ReportData } from './schemas/report-data.ts'
import { GRADE_SCALE } from './schemas/report-scale.ts'

export default defineEndpoint({
  name: 'flagship.report',
  tag: 'flagship',
  method: 'GET',
  path: '/api/report/:domain',
  queryAlias: ['domain'],
  summary: 'The one-call domain report: DNS, delegation health, DNSSEC, email health with DANE and sender networks, TLS, security headers, registration, network dependencies and certificate issuance together, scored per area and overall, with the most severe findings first',
  description:
    'Asks /api/dns/lookup, /api/domain/delegation (the registrable domain), /api/dns/dnssec, /api/email/health + /api/email/dane + /api/email/networks, /api/tls/analyze, /api/web/security-headers, /api/domain/age + /api/domain/registrar, /api/domain/dependencies (network) and /api/domain/issuance in parallel, through their caches, each area under its own deadline. ' +
    'An area that fails is reported as `failed` with the error code and message, one that does not apply as `skipped` with the reason (a name without an address has no TLS or web server); the rest still answer. Only when no area answers is the request a 502. ' +
    `Areas score 0-100 (TLS and web: their own score or grade; email: 80 % its health score and 20 % its sender networks, less the points of DANE\'s findings when the domain publishes TLSA; DNSSEC: secure 100, insecure 60, bogus 0; DNS, delegation, registration, network and issuance: 100 minus their findings\' points, delegation unscored when no name server may be asked); the overall score is the weighted mean of the scored areas, graded ${GRADE_SCALE}. ` +
    'The answer is cached for the shortest freshness of its parts (30 s when one failed).',
  params: z.object({ domain: DomainName, port: HttpsPortParam }),
  data: ReportData,
  upstreams: ['dns', 'smtp', 'tls', 'web', 'rdap', 'ripestat', 'rpki', 'crtsh'],
  cache: { ttl: '5m' },
  // The parts run without their own rate-limit charge: this covers them.
  cost: 10,
  lists: ['findings'],
  csvRows: 'findings',
  example: { domain: 'example.net', port: '8443' },
})
