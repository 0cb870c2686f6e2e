import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDnsClient } from '../../runtime/net/dns/dns-client.ts'
import type { DnsTypeMnemonic } from '../../runtime/net/dns/dns-types.ts'
import { createFetcher } from '../../plugins/dnssec/dnssec-fetcher.ts'
import { loadTrustAnchors } from '../../plugins/dnssec/trust-anchors.ts'
import { createValidator, type Validator } from '../../plugins/dnssec/validator.ts'
import type { TestDnsServer } from '../support/dns-server.ts'
import { startDnsServer } from '../support/dns-server.ts'
import { DNSSEC_FIXTURES } from '../support/dnssec-fixtures.ts'

// The example zones of RFC 4035 Appendix A (NSEC) and RFC 5155 Appendix A (NSEC3,
// salt aabbccdd, 12 iterations, opt-out everywhere), signed by BIND with new keys
// (the RFCs' private keys are not published), and the queries of their Appendix B
// with the outcome each appendix explains. Trust anchor: the zone's own KSK.

type Case = [section: string, name: string, type: DnsTypeMnemonic, status: string, detail: Record<string, unknown>]

async function setUp(rfc: 4035 | 5155, host: string): Promise<{ server: TestDnsServer; validator: Validator }> {
  const server = await startDnsServer({ host, zones: [join(DNSSEC_FIXTURES, `example.rfc${rfc}.signed.zone`)] })
  const dns = createDnsClient({ servers: [{ host, port: server.port }], timeoutMs: 1000 })
  // Signed for 2025-01-01..2045-01-01; judged at a fixed instant inside that window.
  const now = () => Date.parse('2026-06-01T00:00:00Z')
  return { server, validator: createValidator({ fetcher: createFetcher(dns), anchors: loadTrustAnchors(join(DNSSEC_FIXTURES, `example.rfc${rfc}.anchor.ds`)), now }) }
}

function run(cases: Case[], get: () => Validator): void {
  for (const [section, name, type, status, detail] of cases) {
    it(`${section}: ${name} ${type} is ${status}`, async () => {
      const result = await get().validate(name, { type })
      expect(result.outcome.status, 'message' in result.outcome ? result.outcome.message : '').toBe(status)
      const { kind, wildcard, denial } = result.answer
      expect({ ...result.outcome, kind, wildcard: wildcard?.text ?? null, proves: denial?.proves ?? null }).toMatchObject(detail)
    })
  }
}

describe('RFC 4035 Appendix B', () => {
  let s: Awaited<ReturnType<typeof setUp>>
  beforeAll(async () => {
    s = await setUp(4035, '127.0.0.5')
  })
  afterAll(async () => {
    await s.server.close()
  })
  run(
    [
      ['B.1 answer', 'x.w.example', 'MX', 'secure', { kind: 'answer', wildcard: null }],
      ['B.2 name error', 'ml.example', 'A', 'secure', { kind: 'nxdomain', proves: 'nxdomain' }],
      ['B.3 no data', 'ns1.example', 'MX', 'secure', { kind: 'nodata', proves: 'nodata' }],
      // a.example's only DS names RSASHA1 (5): no supported path, so insecure (RFC 4035 §5.2)
      ['B.4 referral to signed zone', 'mc.a.example', 'MX', 'insecure', { reason: 'unsupported_algorithm', at: 'a.example', kind: 'referral' }],
      ['B.5 referral to unsigned zone', 'mc.b.example', 'MX', 'insecure', { reason: 'unsigned_delegation', at: 'b.example', kind: 'referral' }],
      ['B.6 wildcard expansion', 'a.z.w.example', 'MX', 'secure', { kind: 'answer', wildcard: '*.w.example', proves: 'no_exact_match' }],
      ['B.7 wildcard no data', 'a.z.w.example', 'AAAA', 'secure', { kind: 'nodata', proves: 'wildcard_nodata' }],
      ['A (zone data)', 'xx.example', 'AAAA', 'secure', { kind: 'answer' }],
    ],
    () => s.validator,
  )
})

describe('RFC 5155 Appendix B (every NSEC3 has opt-out: RFC 5155 §9.2 denies them "secure" where the next closer name is in an opt-out span)', () => {
  let s: Awaited<ReturnType<typeof setUp>>
  beforeAll(async () => {
    s = await setUp(5155, '127.0.0.6')
  })
  afterAll(async () => {
    await s.server.close()
  })
  run(
    [
      // insecure_at is the zone; the name in the opt-out span (which need not exist) is separate
      ['B.1 name error', 'a.c.x.w.example', 'A', 'insecure', { reason: 'opt_out', at: 'example', optOutName: 'c.x.w.example' }],
      ['B.2 no data', 'ns1.example', 'MX', 'secure', { kind: 'nodata', proves: 'nodata' }],
      ['B.2.1 no data, empty non-terminal', 'y.w.example', 'A', 'secure', { kind: 'nodata', proves: 'nodata' }],
      ['B.3 referral to an opt-out unsigned zone', 'mc.c.example', 'MX', 'insecure', { reason: 'opt_out', at: 'example', optOutName: 'c.example', kind: 'referral' }],
      ['B.4 wildcard expansion', 'a.z.w.example', 'MX', 'insecure', { reason: 'opt_out', at: 'example', optOutName: 'z.w.example' }],
      ['B.5 wildcard no data', 'a.z.w.example', 'AAAA', 'insecure', { reason: 'opt_out', at: 'example', optOutName: 'z.w.example' }],
      // a.example's DS is RSASHA1-only here too
      ['referral to a signed zone', 'mc.a.example', 'MX', 'insecure', { reason: 'unsupported_algorithm', at: 'a.example' }],
      ['A (zone data)', 'ai.example', 'A', 'secure', { kind: 'answer' }],
    ],
    () => s.validator,
  )
})
