import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { FakeRdap } from '../support/fake-rdap.ts'
import { RDAP_ZONES, startFakeRdap } from '../support/fake-rdap.ts'
import type { FakeWhois } from '../support/fake-whois.ts'
import { startFakeWhois } from '../support/fake-whois.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'
import { fenceRefusals } from '../support/loopback-rule.ts'

// /api/domain/* for TLDs without RDAP, end to end: the real app, the fake RDAP
// (whose 2024 bootstrap has no service for .de, .es, .io, .jp, ...) and the
// loopback internet's port-43 servers serving the synthetic answers of
// test/fixtures/whois-synthetic (test/support/fake-whois.ts; written for the
// tests, not recordings), found by name through loopback DNS.

let dns: LoopbackDns
let rdap: FakeRdap
let whois: FakeWhois
let t: TestApp
beforeAll(async () => {
  whois = await startFakeWhois({ servers: ['whois.hostile.test', 'whois.port25.test'] })
  dns = await startLoopbackDns({
    zones: [
      ...DEFAULT_ZONES,
      ...RDAP_ZONES,
      ...whois.zones,
      // A registrar server name that resolves to a private address: must never be dialed.
      `$ORIGIN private.test.\n$TTL 300\n@ IN SOA ns1 hostmaster ( 1 3600 900 604800 60 )\n@ IN NS ns1\nns1 IN A 192.0.2.53\nwhois IN A 10.0.0.43\n`,
    ],
  })
  rdap = await startFakeRdap()
  t = await startTestApp({ ...dns.env, ...rdap.env, ...whois.env, INFRALENS_RATE_LIMITS: 'anonymous=100000,free=600,pro=6000', INFRALENS_CACHE_MAX_ENTRIES: '0', INFRALENS_REQUEST_TIMEOUT_MS: '3000' })
})
afterAll(async () => {
  await t.close()
  await rdap.close()
  await whois.close()
  await dns.close()
})
beforeEach(() => whois.setFault(null))

const data = async (path: string) => {
  const res = await t.json(path)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}
const error = async (path: string, status: number) => {
  const res = await t.json(path)
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  return res.body.error
}
const EXAMPLE_NS = ['ns1.example.net', 'ns2.example.net', 'ns3.example.org', 'ns4.example.org']
const queriesSince = (n: number) => whois.log.slice(n).map((e) => `${e.server} ${e.query}`)

describe('/api/domain/whois for a TLD without RDAP', () => {
  it('example.de (.de was the issue\'s 404): the DENIC-layout answer normalized, source whois, raw text, IANA asked for the TLD only', async () => {
    const before = whois.log.length
    const d = await data('/api/domain/whois/example.de')
    expect(d).toMatchObject({
      domain: 'example.de',
      source: 'whois',
      object_class: 'domain',
      rdap_server: null,
      rdap_url: null,
      bootstrap: { entry: null, publication: '2024-07-25T00:00:01Z', origin: 'live' },
      last_changed: '2024-03-12T20:44:25Z',
      status: [{ code: 'connect', epp: null, meaning: null }],
      port43: 'whois.denic.de',
      registrar_rdap: null,
      whois: { server: 'whois.denic.de:43', query: '-T dn,ace example.de', registrar_server: null, raw: expect.stringContaining('Domain: example.de') },
    })
    expect(d.nameservers.map((n: { name: string }) => n.name)).toEqual(EXAMPLE_NS)
    const queries = queriesSince(before)
    expect(queries.slice(-2)).toEqual(['whois.iana.org de', 'whois.denic.de -T dn,ace example.de'])
  })

  it('example.io: the thin registry names the registrar\'s server; one hop there fills the holder the registry redacts; no further hop', async () => {
    const before = whois.log.length
    const d = await data('/api/domain/whois/example.io')
    expect(d).toMatchObject({
      source: 'whois',
      registered: '2002-10-01T01:00:00Z',
      expires: '2032-09-30T01:00:00Z', // the registry's, not the registrar's 2031 date
      registrar: { name: 'Example Registrar, Inc.', iana_id: '4242', abuse_email: 'abuse@registrar.example' },
      registrant: { roles: ['registrant'], organization: 'Example Holdings Ltd' }, // only the registrar's answer has it
      secure_dns: { delegation_signed: false },
      abuse_contact: { email: 'abuse@registrar.example', inferred: false },
      whois: { server: 'whois.nic.io:43', registrar_server: 'whois.registrar.example:43', registrar_status: 'ok', registrar_raw: expect.stringContaining('Registrant Organization: Example Holdings Ltd') },
    })
    expect(d.status.map((s: { epp: string }) => s.epp)).toContain('serverTransferProhibited')
    // The registrar's answer names its own server again: never followed.
    expect(queriesSince(before).filter((q) => !q.startsWith('whois.iana.org'))).toEqual(['whois.nic.io example.io', 'whois.registrar.example example.io'])
  })

  it('a registry naming itself as the registrar\'s server (the auDA layout) is not asked twice', async () => {
    const before = whois.log.length
    const d = await data('/api/domain/whois/example.com.au')
    expect(d).toMatchObject({ source: 'whois', registrar: { name: 'Example Registrar Pty Ltd' }, registrant: { organization: 'Example Pty Ltd' }, whois: { server: 'whois.auda.org.au:43', registrar_server: null } })
    expect(queriesSince(before).filter((q) => !q.startsWith('whois.iana.org'))).toEqual(['whois.auda.org.au example.com.au'])
  })

  it('IANA\'s referral is cached: a second lookup of the TLD asks only the registry', async () => {
    await data('/api/domain/registrar/example.jp')
    const before = whois.log.length
    const d = await data('/api/domain/registrar/example.jp')
    expect(d).toMatchObject({ source: 'whois', registrar: null, whois_server: 'whois.jprs.jp', whois: { iana_cached: true, query: 'example.jp/e' } })
    expect(queriesSince(before)).toEqual(['whois.jprs.jp example.jp/e'])
  })

  it('age, nameservers and intelligence read the same WHOIS record', async () => {
    const age = await data('/api/domain/age/example.cn')
    expect(age).toMatchObject({ source: 'whois', created: '2003-03-17T12:20:05Z', expires: '2032-03-17T12:48:36Z', rdap_server: null })
    expect(age.age_days).toBeGreaterThan(8000)
    const ns = await data('/api/domain/nameservers/example.es')
    expect(ns).toMatchObject({ source: 'whois', registry_nameservers: ['ns1.example.net', 'ns2.example.net'] })
    const intel = await data('/api/domain/intelligence/example.it')
    expect(intel.registration).toMatchObject({ source: 'whois', rdap_server: null, whois_server: 'whois.nic.it:43', created: '1999-12-10T00:00:00Z', registrar: { name: 'Esempio Registrar S.p.A.' } })
    expect(intel.dnssec).toEqual({ delegation_signed: false, ds_count: 0 })
    expect(intel.errors.map((e: { part: string }) => e.part)).not.toContain('whois')
  })

  it('a domain the registry does not know is a 404 from its WHOIS ("Status: free"); intelligence calls it not registered', async () => {
    const e = await error('/api/domain/whois/no-such-domain-here.de', 404)
    expect(e).toMatchObject({ code: 'not_found', details: { upstream: 'whois', whois_server: 'whois.denic.de:43', status: 404 } })
  })

  it('a TLD with neither RDAP nor a WHOIS server at IANA, and a TLD IANA does not know, are clear 404s', async () => {
    expect((await error('/api/domain/whois/example.eh', 404)).message).toMatch(/neither RDAP .* nor WHOIS/)
    expect((await error('/api/domain/whois/example.invalidtld', 404)).message).toMatch(/not a top-level domain IANA knows/)
  })

  it('.com keeps RDAP: the bootstrap decides, WHOIS is not asked', async () => {
    const before = whois.log.length
    const d = await data('/api/domain/registrar/google.com')
    expect(d).toMatchObject({ source: 'rdap', whois: null, bootstrap: { entry: 'com' } })
    expect(whois.log.length).toBe(before)
  })
})

describe('hostile and failing WHOIS servers', () => {
  it('a referral to a private address is refused, never dialed; the registry\'s answer still comes back', async () => {
    whois.serve('whois.nic.io', 'victim.io', 'Domain Name: victim.io\r\nRegistrar WHOIS Server: whois.private.test\r\nRegistrar: Example\r\nCreation Date: 2020-01-01T00:00:00Z\r\n')
    const refusals = fenceRefusals.count
    const d = await data('/api/domain/whois/victim.io')
    expect(d.whois).toMatchObject({ registrar_server: 'whois.private.test:43', registrar_status: 'blocked', registrar_error: expect.stringMatching(/10\.0\.0\.43|Private-Use/) })
    expect(d.registrar.name).toBe('Example')
    // The guard refused it before any socket: the test fence saw no attempt either.
    expect(fenceRefusals.count).toBe(refusals)
  })

  it('a referral naming port 25 is asked on port 43; a registrar\'s own referral is never followed', async () => {
    whois.serve('whois.nic.io', 'mail.io', 'Domain Name: mail.io\r\nRegistrar WHOIS Server: whois://whois.port25.test:25/\r\nRegistrar: Example\r\n')
    whois.serve('whois.port25.test', 'mail.io', 'Domain Name: mail.io\r\nRegistrar WHOIS Server: whois.hostile.test\r\nRegistrant Organization: Holder\r\n')
    const before = whois.log.length
    const d = await data('/api/domain/whois/mail.io')
    expect(d.whois).toMatchObject({ registrar_server: 'whois.port25.test:43', registrar_status: 'ok' })
    expect(d.registrant.organization).toBe('Holder')
    expect(queriesSince(before).filter((q) => q.startsWith('whois.hostile.test'))).toEqual([])
  })

  it('a registry that never answers is a 502 timeout within the deadline', async () => {
    whois.setFault({ server: 'whois.cnnic.cn', fault: { kind: 'timeout' } })
    const started = Date.now()
    const e = await error('/api/domain/whois/example.cn', 502)
    expect(e.details).toMatchObject({ upstream: 'whois', reason: 'timeout', whois_server: 'whois.cnnic.cn:43' })
    expect(Date.now() - started).toBeLessThan(3000)
  })

  it('a reset is a 502 reset; binary garbage is an answer with no record; a slow drip past the deadline a timeout', async () => {
    whois.setFault({ server: 'whois.auda.org.au', fault: { kind: 'reset' }, times: 1 })
    expect((await error('/api/domain/whois/example.com.au', 502)).details).toMatchObject({ upstream: 'whois', reason: 'reset' })
    whois.setFault({ server: 'whois.nic.it', fault: { kind: 'garbage' }, times: 1 })
    const garbage = await data('/api/domain/whois/example.it')
    expect(garbage).toMatchObject({ source: 'whois', registrar: null, nameservers: [], registered: null })
    expect(garbage.whois.raw).toContain('\uFFFD')
    whois.setFault({ server: 'whois.jprs.jp', fault: { kind: 'drip', bytes: 1, intervalMs: 50 } })
    expect((await error('/api/domain/whois/example.jp', 502)).details).toMatchObject({ upstream: 'whois', reason: 'timeout' })
  })

  it('an answer without end is cut at the size limit: 502 bad_response', async () => {
    whois.setFault({ server: 'whois.tcinet.ru', fault: { kind: 'oversize', bytes: 4 * 1024 * 1024 } })
    const e = await error('/api/domain/whois/example.ru', 502)
    expect(e.details).toMatchObject({ upstream: 'whois', reason: 'bad_response', max_bytes: 256 * 1024 })
  })
})
