import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDnsClient } from '../../runtime/net/dns/dns-client.ts'
import type { DnsTypeMnemonic } from '../../runtime/net/dns/dns-types.ts'
import { createFetcher } from '../../plugins/dnssec/dnssec-fetcher.ts'
import { loadTrustAnchors } from '../../plugins/dnssec/trust-anchors.ts'
import { createValidator } from '../../plugins/dnssec/validator.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { BindServer } from '../support/bind-server.ts'
import { bindAvailable, startBind } from '../support/bind-server.ts'
import { delv, delvAvailable } from '../support/delv.ts'
import { DNSSEC_FIXTURES, EXPECTED, ROOT_ANCHOR_CONF, ROOT_ANCHOR_DS, treeZones, zoneText } from '../support/dnssec-fixtures.ts'

// Interop with BIND 9: named serves the signed test tree (authoritative for every
// zone, so it answers each name from the deepest zone and DS from the parent, as a
// resolver would); the service uses it as its resolver, and delv — BIND's validator —
// gets the same trust anchor and the same server. Both must reach the same verdict.

// Where delv and the service knowingly differ. RFC 5155 §9.2: the AD bit must not be
// set for a response whose closest encloser proof has an opt-out NSEC3 covering the
// next closer name; Unbound (nsec3_do_prove_nameerror) and this service call such an
// NXDOMAIN insecure, BIND 9.18 calls it secure.
const KNOWN_DIFFERENCES: Record<string, { delv: string; why: string }> = {
  'does-not-exist.optout.test': { delv: 'secure', why: 'RFC 5155 §9.2 opt-out NXDOMAIN: BIND says secure, the RFC (and Unbound) not' },
}

// What delv says about each bogus zone, for the record (its words, not ours).
const DELV_WORDS: Record<string, RegExp> = {
  'www.bad-sig.test': /RRSIG failed to verify/,
  'www.expired.test': /RRSIG has expired/,
  'www.future.test': /validity period has not begun/,
  'www.wrong-ds.test': /no valid signature found \(DS\)/,
  'www.no-dnskey.test': /parent indicates it should be secure/,
  'www.no-rrsig.test': /insecurity proof failed/,
}

let named: BindServer
let t: TestApp

beforeAll(async () => {
  if (!bindAvailable() || !delvAvailable()) throw new Error('BIND 9 (named) and delv are needed: apt-get install bind9 bind9-dnsutils (.ci/run does this)')
  const zones: Record<string, string> = {}
  for (const [origin, path] of Object.entries(treeZones())) zones[origin] = zoneText(path)
  named = await startBind(zones)
  t = await startTestApp({
    INFRALENS_DNS_RESOLVERS: `${named.host}:${named.port}`,
    INFRALENS_TRUST_ANCHORS: ROOT_ANCHOR_DS,
    INFRALENS_DNS_TIMEOUT_MS: '1000',
    INFRALENS_RATE_LIMITS: 'anonymous=100000',
  })
}, 60_000)
afterAll(async () => {
  await t?.close()
  await named?.close()
})

describe('the service and delv agree on every test domain (named serving the tree)', () => {
  for (const expected of EXPECTED) {
    it(`${expected.domain}: ${expected.status}`, async () => {
      const res = await t.json(`/api/dns/dnssec/${expected.domain}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const service = res.body.data
      expect(service.status, service.message).toBe(expected.status)
      if (expected.reason) expect(service.reason).toBe(expected.reason)
      const fromDelv = delv(named, ROOT_ANCHOR_CONF, expected.domain)
      const known = KNOWN_DIFFERENCES[expected.domain]
      expect(fromDelv.status, fromDelv.lines.join('\n')).toBe(known ? known.delv : service.status)
      const words = DELV_WORDS[expected.domain]
      if (words) expect(fromDelv.lines.join('\n')).toMatch(words)
    })
  }
})

describe('the RFC 4035 and RFC 5155 example zones, named and delv with the zone\'s own anchor', () => {
  // Only names inside the zone: the delegations' name servers are 192.0.2.x addresses
  // a referral could send delv to, and nothing here may leave loopback.
  // The fourth field is where BIND parts from RFC 5155 §9.2 (see KNOWN_DIFFERENCES): a
  // name error or a wildcard NODATA whose next closer name is in an opt-out span is
  // insecure to the RFC (and Unbound, and us), secure to BIND. For the wildcard
  // expansion itself BIND agrees that it is insecure.
  const cases: Array<[rfc: 4035 | 5155, name: string, type: DnsTypeMnemonic, delvSays?: string]> = [
    [4035, 'x.w.example', 'MX'],
    [4035, 'ml.example', 'A'],
    [4035, 'ns1.example', 'MX'],
    [4035, 'a.z.w.example', 'MX'],
    [4035, 'a.z.w.example', 'AAAA'],
    [5155, 'ns1.example', 'MX'],
    [5155, 'y.w.example', 'A'],
    [5155, 'ai.example', 'A'],
    [5155, 'a.z.w.example', 'MX'],
    [5155, 'a.z.w.example', 'AAAA', 'secure'],
    [5155, 'a.c.x.w.example', 'A', 'secure'],
  ]
  for (const rfc of [4035, 5155] as const) {
    describe(`RFC ${rfc}`, () => {
      let server: BindServer
      beforeAll(async () => {
        server = await startBind({ example: readFileSync(join(DNSSEC_FIXTURES, `example.rfc${rfc}.signed.zone`), 'utf8') })
      }, 30_000)
      afterAll(async () => {
        await server?.close()
      })
      for (const [r, name, type, delvSays] of cases.filter((c) => c[0] === rfc)) {
        it(`${name} ${type}`, async () => {
          const validator = createValidator({
            fetcher: createFetcher(createDnsClient({ servers: [{ host: server.host, port: server.port }], timeoutMs: 1000 })),
            anchors: loadTrustAnchors(join(DNSSEC_FIXTURES, `example.rfc${r}.anchor.ds`)),
            // delv judges the signatures at the host's time: so do we, to compare.
            now: () => Date.now(),
          })
          const ours = (await validator.validate(name, { type })).outcome
          const theirs = delv(server, join(DNSSEC_FIXTURES, `example.rfc${r}.anchor.conf`), name, type, 'example')
          if (delvSays) expect(ours).toMatchObject({ status: 'insecure', reason: 'opt_out' })
          expect(theirs.status, theirs.lines.join('\n')).toBe(delvSays ?? ours.status)
        })
      }
    })
  }
})
