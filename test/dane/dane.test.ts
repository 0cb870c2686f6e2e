import { createHash, X509Certificate } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DANE_FINDINGS } from '../../registry/dns/schemas/dane-findings.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { bindAvailable } from '../support/bind-server.ts'
import type { DaneWorld, MailCase } from '../support/dane-world.ts'
import { startDaneWorld } from '../support/dane-world.ts'
import { delv, delvAvailable } from '../support/delv.ts'
import { opensslDane } from '../support/openssl-dane.ts'

// DANE end to end on the loopback internet (test/support/dane-world.ts): TLSA records
// in a zone BIND's signer signed this run, served by named; mail hosts with and
// without STARTTLS and a web host, with certificates made this run. Each fault is
// made on purpose. Oracles: delv for the TLSA RRset's DNSSEC status, openssl
// s_client -dane_tlsa_rrdata for whether each record authenticates the served chain.

let world: DaneWorld
let t: TestApp

beforeAll(async () => {
  if (!bindAvailable() || !delvAvailable()) throw new Error('BIND 9 (named, dig, delv, dnssec-signzone) is needed: apt-get install bind9 bind9-dnsutils bind9-utils (.ci/run does this)')
  world = await startDaneWorld()
  t = await startTestApp(world.env)
}, 90_000)
afterAll(async () => {
  await t?.close()
  await world?.close()
})

type Rec = Record<string, any>
const ids = (findings: Rec[]) => findings.map((f) => f.id as string).sort()
const rrdata = (r: Rec) => `${r.usage} ${r.selector} ${r.matching_type} ${r.association_data}`

/** openssl's verdict on each record of a mail host, over STARTTLS on the fakes' port. */
function opensslOn(c: MailCase, r: Rec) {
  return opensslDane({ address: c.address, port: world.smtp.port, name: c.mx, rrdata: rrdata(r), smtp: true, caFile: world.caFile })
}

describe('/api/email/dane: every MX host, each fault on purpose', () => {
  // [case, domain status, host verdict, finding ids, delv's verdict on the TLSA RRset]
  const cases: Array<[string, string, string, string[], 'secure' | 'insecure' | 'bogus' | null]> = [
    ['good', 'valid', 'valid', [], 'secure'],
    ['next', 'valid', 'valid', [], 'secure'],
    ['single', 'valid', 'valid', ['dane.no_rollover_record'], 'secure'],
    ['mismatch', 'failing', 'mismatch', ['dane.no_match'], 'secure'],
    ['pkix', 'failing', 'no_usable_records', ['dane.no_usable_records', 'dane.smtp_pkix_usage'], 'secure'],
    ['bogus', 'failing', 'bogus', ['dane.tlsa_bogus'], 'bogus'],
    ['nostarttls', 'failing', 'tls_unavailable', ['dane.tls_unavailable'], 'secure'],
    ['taname', 'failing', 'mismatch', ['dane.no_match'], 'secure'],
    ['odd', 'valid', 'valid', ['dane.no_rollover_record', 'dane.unusable_record'], 'secure'],
    ['down', 'partial', 'unreachable', ['dane.unreachable'], 'secure'],
    ['none', 'not_used', 'no_tlsa', ['dane.not_used'], null],
    ['insecure', 'not_secure', 'not_secure', ['dane.mx_not_secure', 'dane.tlsa_not_secure'], 'insecure'],
  ]
  for (const [name, status, verdict, findings, dnssec] of cases) {
    it(`${name}: ${status} (${verdict})`, async () => {
      const c = world.mail[name]!
      const res = await t.json(`/api/email/dane/${c.domain}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const d = res.body.data
      expect(d.status, JSON.stringify(d, null, 1)).toBe(status)
      expect(d.mx).toMatchObject({ status: 'answer', implicit: false, null_mx: false, hosts: [{ host: c.mx, preference: 10 }] })
      expect(d.mx.dnssec.status).toBe(c.domain.endsWith('.plain') ? 'insecure' : 'secure')
      expect(d.hosts).toHaveLength(1)
      const h = d.hosts[0]
      expect(h).toMatchObject({ host: c.mx, port: 25, proto: 'tcp', tlsa_name: `_25._tcp.${c.mx}`, service: 'smtp', verdict, preference: 10 })
      expect(ids(d.findings)).toEqual(findings)
      for (const f of d.findings) expect(f.severity).toBe(DANE_FINDINGS[f.id as keyof typeof DANE_FINDINGS].severity)
      expect(d.score).toBe(status === 'not_used' ? null : Math.max(0, 100 - d.findings.reduce((s: number, f: Rec) => s + ({ critical: 50, high: 25, medium: 10, low: 5, info: 0 } as Rec)[f.severity], 0)))
      // Every published record, decoded as the zone says it.
      expect(h.tlsa.records.map(rrdata).sort()).toEqual([...c.tlsa].sort())
      // The DNSSEC verdict on the TLSA RRset is delv's.
      if (dnssec) {
        expect(h.tlsa.dnssec.status, h.tlsa.dnssec.message).toBe(dnssec)
        expect(delv(world.bind, world.tree.anchorConf, h.tlsa_name, 'TLSA').status).toBe(dnssec)
      } else expect(h.tlsa.dnssec).toBeNull()
    })
  }

  it('the served chain is what the host sends after STARTTLS, leaf first, with the fingerprints to publish', async () => {
    const c = world.mail.good!
    const h = (await t.json(`/api/email/dane/${c.domain}`)).body.data.hosts[0]
    expect(h.certificate.address).toBe(c.address)
    expect(h.certificate.chain.map((x: Rec) => x.fingerprint_sha256)).toEqual(c.served.map((s) => createHash('sha256').update(s.der).digest('hex')))
    const spki = new X509Certificate(c.served[0]!.der).publicKey.export({ type: 'spki', format: 'der' })
    expect(h.certificate.chain[0].spki_fingerprint_sha256).toBe(createHash('sha256').update(spki).digest('hex'))
    // 3 1 1 matched the leaf, 2 1 1 the issuing CA
    expect(h.tlsa.records.map((r: Rec) => [r.usage_name, r.selector_name, r.matching_type_name, r.matches, r.matched_position])).toEqual(
      expect.arrayContaining([
        ['DANE-EE', 'SPKI', 'SHA2-256', true, 0],
        ['DANE-TA', 'SPKI', 'SHA2-256', true, 1],
      ]),
    )
  })

  it('each usable record matches exactly when openssl s_client -dane_tlsa_rrdata verifies the host with it', async () => {
    let compared = 0
    for (const name of ['good', 'next', 'single', 'mismatch', 'taname', 'bogus']) {
      const c = world.mail[name]!
      const h = (await t.json(`/api/email/dane/${c.domain}`)).body.data.hosts[0]
      for (const r of h.tlsa.records as Rec[]) {
        const oracle = await opensslOn(c, r)
        expect(r.matches, `${name} ${rrdata(r)}: openssl says\n${oracle.output}\nours: ${JSON.stringify(r)}`).toBe(oracle.verified)
        compared++
      }
    }
    expect(compared).toBe(9)
  })

  it('usage 1 on SMTP: its data matches and openssl (no SMTP rule) verifies it, but RFC 7672 §3.1.3 makes it unusable', async () => {
    const c = world.mail.pkix!
    const r = (await t.json(`/api/email/dane/${c.domain}`)).body.data.hosts[0].tlsa.records[0]
    expect(r).toMatchObject({ usage: 1, usage_name: 'PKIX-EE', usable: false, matches: false, matched_position: 0 })
    expect(r.unusable_reason).toContain('RFC 7672')
    expect((await opensslOn(c, r)).verified).toBe(true)
  })

  it('DANE-TA whose leaf names another host: the data matches the CA, the name check fails, as openssl finds', async () => {
    const c = world.mail.taname!
    const r = (await t.json(`/api/email/dane/${c.domain}`)).body.data.hosts[0].tlsa.records[0]
    expect(r).toMatchObject({ usage: 2, usable: true, matches: false, matched_position: 1 })
    expect(r.problem).toContain('does not name')
    expect((await opensslOn(c, r)).verified).toBe(false)
  })

  it('an insecure MX RRset in front of a host with secure, matching TLSA: not_secure, senders do not apply DANE', async () => {
    const d = (await t.json('/api/email/dane/mixed.plain')).body.data
    expect(d.status).toBe('not_secure')
    expect(d.mx.dnssec.status).toBe('insecure')
    expect(d.hosts[0]).toMatchObject({ host: world.mail.good!.mx, verdict: 'valid' })
    expect(ids(d.findings)).toEqual(['dane.mx_not_secure'])
    expect(delv(world.bind, world.tree.anchorConf, 'mixed.plain', 'MX').status).toBe('insecure')
  })

  it('a domain that does not exist: not_applicable', async () => {
    const d = (await t.json('/api/email/dane/nothing-here.dane')).body.data
    expect(d).toMatchObject({ status: 'not_applicable', score: null, hosts: [], mx: { status: 'nxdomain' } })
  })

  it('only the hosts with TLSA records are probed (no STARTTLS session for none.dane)', async () => {
    const before = world.smtp.sessions.filter((s) => s.address === world.mail.none!.address).length
    await t.json('/api/email/dane/none.dane?cache=false')
    expect(world.smtp.sessions.filter((s) => s.address === world.mail.none!.address).length).toBe(before)
  })
})

describe('/api/dns/dane: one TLS service', () => {
  it('a web host: 3 0 1 matches the leaf, 2 1 1 its issuer, as openssl verifies each', async () => {
    const w = world.webHost
    const res = await t.json(`/api/dns/dane/${w.host}?port=${w.port}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const d = res.body.data
    expect(d).toMatchObject({ host: w.host, port: w.port, proto: 'tcp', tlsa_name: `_${w.port}._tcp.${w.host}`, service: 'tls', verdict: 'valid', findings: [] })
    expect(d.tlsa.dnssec.status).toBe('secure')
    expect(delv(world.bind, world.tree.anchorConf, d.tlsa_name, 'TLSA').status).toBe('secure')
    expect(d.certificate.pkix_valid).toBe(true)
    expect(d.tlsa.records.map((r: Rec) => [rrdata(r), r.matches, r.matched_position])).toEqual(
      expect.arrayContaining([
        [w.tlsa[0], true, 0],
        [w.tlsa[1], true, 1],
      ]),
    )
    for (const r of d.tlsa.records as Rec[]) expect((await opensslDane({ address: w.address, port: w.port, name: w.host, rrdata: rrdata(r), smtp: false })).verified).toBe(true)
  })

  it('port 25 is SMTP with STARTTLS (on the configured SMTP port), with the same verdict as /api/email/dane', async () => {
    const c = world.mail.single!
    const d = (await t.json(`/api/dns/dane/${c.mx}?port=25`)).body.data
    expect(d).toMatchObject({ service: 'smtp', verdict: 'valid', tlsa_name: `_25._tcp.${c.mx}` })
    expect(ids(d.findings)).toEqual(['dane.no_rollover_record'])
  })

  it('no TLSA: no_tlsa, and the certificate is still shown so its record can be published', async () => {
    const w = world.webHost
    const d = (await t.json(`/api/dns/dane/${w.host}?port=${w.port + 1 === 65_536 ? 1 : w.port + 1}`)).body.data
    expect(d.verdict).toBe('no_tlsa')
    expect(d.tlsa).toMatchObject({ status: 'nxdomain', records: [], dnssec: null })
    expect(ids(d.findings)).toEqual(['dane.not_used'])
  })

  it('bad input is a 400 that says what to fix', async () => {
    for (const q of ['port=0', 'port=70000', 'port=x', 'proto=quic']) {
      const res = await t.json(`/api/dns/dane/www.dane?${q}`)
      expect(res.status, q).toBe(400)
      expect(res.body.error.message.length).toBeGreaterThan(10)
    }
  })
})
