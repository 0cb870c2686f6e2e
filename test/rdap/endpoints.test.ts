import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { FakeRdap } from '../support/fake-rdap.ts'
import { RDAP_ZONES, startFakeRdap } from '../support/fake-rdap.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'

// The RDAP endpoints end to end: the real app, the fake RDAP servers replaying the
// recorded answers, and loopback DNS.

let dns: LoopbackDns
let rdap: FakeRdap
let t: TestApp
beforeAll(async () => {
  dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, ...RDAP_ZONES] })
  rdap = await startFakeRdap()
  t = await startTestApp({ ...dns.env, ...rdap.env, INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_CACHE_MAX_ENTRIES: '0' })
})
afterAll(async () => {
  await t.close()
  await rdap.close()
  await dns.close()
})
beforeEach(() => rdap.setFault(null))

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
const base = (registry: string) => `${rdap.origin}/${registry}`
const day = 24 * 60 * 60 * 1000
/** The expiry finding the service must add today for a registration expiring at `expires` (findings.ts thresholds). */
const expiryFindings = (expires: string, now = Date.now()): string[] => {
  const days = Math.floor((Date.parse(expires) - now) / day)
  return days < 0 ? ['expired'] : days <= 30 ? ['expiring_soon'] : []
}

describe('/api/domain/whois', () => {
  it('google.com: the normalized Verisign record, where it came from, Accept header', async () => {
    const before = rdap.log.length
    const d = await data('/api/domain/whois/google.com')
    expect(d).toMatchObject({
      domain: 'google.com',
      object_class: 'domain',
      ldh_name: 'GOOGLE.COM',
      handle: '2138514_DOMAIN_COM-VRSN',
      registered: '1997-09-15T04:00:00Z',
      expires: '2028-09-14T04:00:00Z',
      registrar: { name: 'MarkMonitor Inc.', iana_id: '292', abuse_email: 'abusecomplaints@markmonitor.com' },
      secure_dns: { delegation_signed: true },
      rdap_server: base('rdap.verisign.com/com/v1/'),
      rdap_url: base('rdap.verisign.com/com/v1/domain/google.com'),
      bootstrap: { entry: 'com', publication: '2024-07-25T00:00:01Z', origin: 'live' },
    })
    expect(d.status).toHaveLength(6)
    expect(d.nameservers.map((n: { name: string }) => n.name)).toEqual(['ns1.google.com', 'ns2.google.com', 'ns3.google.com', 'ns4.google.com'])
    // thin registry answer: the registrar link was followed; MarkMonitor's record is not recorded, so 404
    expect(d.registrar_rdap).toEqual({ url: base('rdap.markmonitor.com/rdap/domain/GOOGLE.COM'), status: 'not_found', error: expect.stringMatching(/404/) })
    const queries = rdap.log.slice(before).filter((e) => !e.path.startsWith('/bootstrap/'))
    expect(queries.map((e) => e.path)).toEqual(['/rdap.verisign.com/com/v1/domain/google.com', '/rdap.markmonitor.com/rdap/domain/GOOGLE.COM'])
    for (const q of queries) expect(q.accept).toMatch(/^application\/rdap\+json/)
  })

  it('follows the related link of a thin answer and completes it from the registrar', async () => {
    // Synthetic registrar answer (no recording exists): a registrant redacted to its
    // country, a technical contact, the registrar's own expiration event.
    rdap.serve('/rdap.registrar.eu/v1/domain/THEMARQUETRY.COM', {
      objectClassName: 'domain',
      ldhName: 'THEMARQUETRY.COM',
      status: ['client transfer prohibited'],
      events: [
        { eventAction: 'registration', eventDate: '2021-03-16T17:07:37Z' },
        { eventAction: 'registrar expiration', eventDate: '2022-03-16T17:07:37Z' },
      ],
      entities: [
        { objectClassName: 'entity', handle: '1647', roles: ['registrar'], vcardArray: ['vcard', [['version', {}, 'text', '4.0'], ['fn', {}, 'text', 'Registrar.eu'], ['url', {}, 'uri', 'https://www.registrar.eu']]] },
        { objectClassName: 'entity', roles: ['registrant'], vcardArray: ['vcard', [['version', {}, 'text', '4.0'], ['fn', {}, 'text', ''], ['adr', { cc: 'NL' }, 'text', ['', '', '', '', '', '', 'Netherlands']]]] },
        { objectClassName: 'entity', handle: 'TECH-1', roles: ['technical'], vcardArray: ['vcard', [['version', {}, 'text', '4.0'], ['fn', {}, 'text', 'Hostmaster'], ['email', {}, 'text', 'hostmaster@example.nl']]] },
      ],
    })
    const d = await data('/api/domain/whois/themarquetry.com')
    expect(d.registrar_rdap).toEqual({ url: base('rdap.registrar.eu/v1/domain/THEMARQUETRY.COM'), status: 'ok', error: null })
    // registry stays authoritative: its registrar name, its abuse contact
    expect(d.registrar).toEqual({
      handle: '1647',
      name: 'Hosting Concepts B.V. d/b/a Registrar.eu',
      iana_id: '1647',
      url: 'https://www.registrar.eu',
      abuse_email: 'abuse@registrar.eu',
      abuse_phone: '+31.104482297',
    })
    expect(d.registrant).toMatchObject({ roles: ['registrant'], name: null, address: ['Netherlands'] })
    expect(d.entities.map((e: { roles: string[] }) => e.roles[0])).toEqual(['registrar', 'abuse', 'registrant', 'technical'])
    expect(d.events.map((e: { action: string }) => e.action)).toEqual(['registration', 'expiration', 'last update of rdap database', 'registrar expiration'])
    expect(d.expires).toBe('2022-03-16T17:07:37Z')
  })

  it('a failing registrar server degrades the answer, never fails it', async () => {
    rdap.setFault({ fault: { kind: 'status', status: 500 }, match: /rdap\.joker\.com/ })
    const d = await data('/api/domain/whois/20c.com')
    expect(d.registrar_rdap).toMatchObject({ url: base('rdap.joker.com/domain/20C.COM'), status: 'failed', error: expect.stringMatching(/HTTP 500/) })
    expect(d.registrar.name).toBe('CSL Computer Service Langenbach GmbH d/b/a joker.com')
  })

  it('ccTLDs with full registry data are not followed (norway.no, example.cz)', async () => {
    const no = await data('/api/domain/whois/norway.no')
    expect(no).toMatchObject({ registrar_rdap: null, rdap_server: base('rdap.norid.no/'), bootstrap: { entry: 'no' } })
    expect(no.registrar).toMatchObject({ handle: 'reg42-NORID', name: 'Domeneshop AS' })
    const cz = await data('/api/domain/whois?domain=EXAMPLE.CZ.')
    expect(cz).toMatchObject({ domain: 'example.cz', port43: 'whois.nic.cz', registrant: { handle: 'SB:EXAMPLE' }, registrar_rdap: null })
  })

  it('an unregistered domain is the registry\'s 404; a TLD without RDAP goes to WHOIS, with no RDAP query', async () => {
    const before = rdap.log.length
    const e = await error('/api/domain/whois/no-such-domain-here.com', 404)
    expect(e).toMatchObject({ code: 'not_found', details: { upstream: 'rdap', status: 404, url: base('rdap.verisign.com/com/v1/domain/no-such-domain-here.com') } })
    // This world has no port-43 servers (test/whois/ has them): IANA's WHOIS cannot be reached.
    const tld = await error('/api/domain/whois/example.invalidtld', 502)
    expect(tld.details).toMatchObject({ upstream: 'whois', reason: 'network', whois_server: 'whois.iana.org:43' })
    expect(rdap.log.slice(before).map((l) => l.path)).toEqual(['/rdap.verisign.com/com/v1/domain/no-such-domain-here.com'])
  })

  it('bad input is a 400 before anything is asked', async () => {
    const e = await error('/api/domain/whois/not_a..domain', 400)
    expect(e.code).toBe('bad_request')
  })
})

describe('/api/domain/registrar and /api/domain/age', () => {
  it('registrar: from the registry record only (no registrar hop)', async () => {
    const before = rdap.log.length
    const d = await data('/api/domain/registrar/google.com')
    expect(d).toEqual({
      domain: 'google.com',
      registrar: { handle: '292', name: 'MarkMonitor Inc.', iana_id: '292', url: null, abuse_email: 'abusecomplaints@markmonitor.com', abuse_phone: '+1.2083895740' },
      whois_server: null,
      source: 'rdap',
      rdap_server: base('rdap.verisign.com/com/v1/'),
      rdap_url: base('rdap.verisign.com/com/v1/domain/google.com'),
      bootstrap: { entry: 'com', publication: '2024-07-25T00:00:01Z', origin: 'live' },
      whois: null,
    })
    expect(rdap.log.slice(before).map((l) => l.path)).toEqual(['/rdap.verisign.com/com/v1/domain/google.com'])
    expect((await data('/api/domain/registrar/example.cz')).whois_server).toBe('whois.nic.cz')
  })

  it('age: days since the registration event, days to expiry', async () => {
    const now = Date.now()
    const d = await data('/api/domain/age/google.com')
    expect(d).toMatchObject({ domain: 'google.com', created: '1997-09-15T04:00:00Z', expires: '2028-09-14T04:00:00Z', expired: now >= Date.parse('2028-09-14T04:00:00Z') })
    expect(Math.abs(d.age_days - Math.floor((now - Date.parse('1997-09-15T04:00:00Z')) / day))).toBeLessThanOrEqual(1)
    expect(d.age_years).toBeCloseTo(d.age_days / 365.25, 2)
    expect(Math.abs(d.days_to_expiry - Math.floor((Date.parse('2028-09-14T04:00:00Z') - now) / day))).toBeLessThanOrEqual(1)
  })

  it('age: expired registrations and registries without an expiration event', async () => {
    expect(await data('/api/domain/age/themarquetry.com')).toMatchObject({ expired: true, expires: '2022-03-16T17:07:37Z' })
    const no = await data('/api/domain/age/norway.no')
    expect(no).toMatchObject({ created: '2017-01-24T12:09:23Z', expires: null, days_to_expiry: null, expired: null, last_changed: '2021-01-14T05:16:59Z' })
    expect(no.age_days).toBeGreaterThan(3000)
  })
})

describe('/api/domain/nameservers', () => {
  it('in sync: registry delegation equals the zone\'s NS set', async () => {
    const d = await data('/api/domain/nameservers/google.com')
    expect(d).toMatchObject({ in_sync: true, mismatch: false, dns_status: 'answer', dns_error: null, only_in_registry: [], only_in_dns: [] })
    expect(d.registry_nameservers).toEqual(d.dns_nameservers)
  })

  it('mismatch flagged, with the names on each side', async () => {
    const d = await data('/api/domain/nameservers/20c.com')
    expect(d).toMatchObject({ in_sync: false, mismatch: true, only_in_registry: ['ns-545.awsdns-04.net'], only_in_dns: ['ns-9.awsdns-01.com'] })
    expect(d.nameservers.find((n: { name: string }) => n.name === 'ns-9.awsdns-01.com')).toMatchObject({ in_registry: false, in_dns: true })
  })

  it('DNS failing is reported in the answer; RDAP failing fails it', async () => {
    const d = await data('/api/domain/nameservers/norway.no') // no zone: the loopback resolver REFUSES
    expect(d).toMatchObject({ in_sync: null, mismatch: false, dns_nameservers: null, dns_status: 'error', dns_error: expect.stringMatching(/REFUSED/) })
    expect(d.registry_nameservers).toHaveLength(4)
    rdap.setFault({ fault: { kind: 'status', status: 503 } })
    const e = await error('/api/domain/nameservers/google.com', 502)
    expect(e.details).toMatchObject({ upstream: 'rdap', reason: 'http_error', status: 503 })
  })
})

describe('/api/domain/intelligence', () => {
  it('google.com: registration, locks, DNSSEC, NS, mail and CAA signals, findings', async () => {
    const d = await data('/api/domain/intelligence/google.com')
    expect(d.registration).toMatchObject({ registrar: { name: 'MarkMonitor Inc.', iana_id: '292' }, created: '1997-09-15T04:00:00Z', transfer_locked: true, registry_locked: true, on_hold: false })
    expect(d.dnssec).toEqual({ delegation_signed: true, ds_count: 0 })
    expect(d.nameservers).toMatchObject({ in_sync: true })
    expect(d.mail).toEqual({
      mx: [{ preference: 10, exchange: 'smtp.google.com' }],
      null_mx: false,
      spf: { present: true, records: ['v=spf1 include:_spf.google.com ~all'] },
      dmarc: { present: true, record: 'v=DMARC1; p=reject; rua=mailto:mailauth-reports@google.com', policy: 'reject' },
    })
    expect(d.caa).toEqual({ present: true, issuers: ['pki.goog'], records: ['0 issue "pki.goog"'] })
    // The registration expires 2028-09-14: from 30 days before that the answer says so (test/rdap/domain-clock.test.ts pins the times).
    expect(d.findings.map((f: { code: string }) => f.code)).toEqual([...expiryFindings('2028-09-14T04:00:00Z'), 'registry_lock', 'dnssec_signed'])
    expect(d.errors).toEqual([])
  })

  it('20c.com: findings by severity, most severe first', async () => {
    const d = await data('/api/domain/intelligence/20c.com')
    const codes = d.findings.map((f: { severity: string; code: string }) => `${f.severity}:${f.code}`)
    expect(codes).toEqual(expect.arrayContaining(['medium:nameserver_mismatch', 'medium:spf_missing', 'medium:dmarc_missing', 'low:no_transfer_lock', 'low:dnssec_unsigned', 'low:caa_missing', 'info:no_mx']))
    const order = ['critical', 'high', 'medium', 'low', 'info']
    const ranks = d.findings.map((f: { severity: string }) => order.indexOf(f.severity))
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b))
    // expired on 2025-06-28 by the recording
    expect(codes.includes('critical:expired')).toBe(Date.now() > Date.parse('2025-06-28T18:28:14Z'))
  })

  it('parts that fail are listed in errors; the rest still answers', async () => {
    const d = await data('/api/domain/intelligence/themarquetry.com') // no DNS zone
    expect(d.registration).toMatchObject({ expires: '2022-03-16T17:07:37Z' })
    expect(d.findings[0]).toMatchObject({ severity: 'critical', code: 'expired' })
    expect(d.errors.map((e: { part: string }) => e.part)).toEqual(['dns.ns', 'dns.mx', 'dns.txt', 'dns.dmarc', 'dns.caa'])
    expect(d.mail).toEqual({ mx: null, null_mx: null, spf: null, dmarc: null })

    rdap.setFault({ fault: { kind: 'status', status: 500 } })
    const partial = await data('/api/domain/intelligence/google.com')
    expect(partial.registration).toBeNull()
    expect(partial.errors).toEqual([{ part: 'rdap', message: expect.stringMatching(/HTTP 500/) }])
    expect(partial.mail.spf.present).toBe(true)
  })

  it('a domain the registry does not know is a finding, not an error', async () => {
    const d = await data('/api/domain/intelligence/example.com') // DNS has it; Verisign's fake does not
    expect(d.registration).toBeNull()
    expect(d.findings[0]).toMatchObject({ severity: 'high', code: 'not_registered' })
    expect(d.mail.null_mx).toBe(true)
    expect(d.errors).toEqual([])
  })
})

describe('/api/whois/ip', () => {
  it('1.1.1.1 at APNIC', async () => {
    const d = await data('/api/whois/ip/1.1.1.1')
    expect(d).toMatchObject({
      ip: '1.1.1.1',
      registry: 'APNIC',
      name: 'APNIC-LABS',
      handle: '1.1.1.0 - 1.1.1.255',
      start_address: '1.1.1.0',
      end_address: '1.1.1.255',
      cidrs: ['1.1.1.0/24'],
      cidr_source: 'cidr0',
      country: 'AU',
      abuse_contact: { email: 'helpdesk@apnic.net' },
      rdap_server: base('rdap.apnic.net/'),
      rdap_url: base('rdap.apnic.net/ip/1.1.1.1'),
      bootstrap: { entry: '1.0.0.0/8', publication: '2019-06-07T19:00:02Z', origin: 'live' },
    })
  })

  it('13.72.183.192 in MSFT\'s range spanning three CIDRs (ARIN)', async () => {
    const d = await data('/api/whois/ip/13.72.183.192')
    expect(d).toMatchObject({ registry: 'ARIN', name: 'MSFT', cidrs: ['13.64.0.0/11', '13.96.0.0/13', '13.104.0.0/14'], organization: { name: 'Microsoft Corporation' }, abuse_contact: { email: 'abuse@microsoft.com' } })
  })

  it('IPv6 2001:4860:4860::8888 (ARIN, origin AS15169), in any spelling', async () => {
    const d = await data('/api/whois/ip?ip=2001:4860:4860:0:0:0:0:8888')
    expect(d).toMatchObject({ ip: '2001:4860:4860::8888', ip_version: 6, name: 'GOOGLE-IPV6', cidrs: ['2001:4860::/32'], origin_asns: [15169], bootstrap: { entry: '2001:4800::/23' } })
  })

  it('206.41.110.5: CHIX', async () => {
    expect(await data('/api/whois/ip/206.41.110.5')).toMatchObject({ name: 'CHIX', registry: 'ARIN', cidrs: ['206.41.110.0/24'] })
  })

  it('130.59.31.80: the bootstrap says ARIN, ARIN redirects to RIPE (legacy space); the redirect is followed', async () => {
    const before = rdap.log.length
    const d = await data('/api/whois/ip/130.59.31.80')
    expect(d).toMatchObject({ registry: 'RIPE NCC', name: 'SWITCH-LAN', country: 'CH', cidrs: ['130.59.0.0/16'], cidr_source: 'computed' })
    expect(d.rdap_server).toBe(base('rdap.arin.net/registry/'))
    expect(d.rdap_url).toBe(base('rdap.db.ripe.net/ip/130.59.31.80'))
    expect(rdap.log.slice(before).map((l) => l.path)).toEqual(['/rdap.arin.net/registry/ip/130.59.31.80', '/rdap.db.ripe.net/ip/130.59.31.80'])
  })

  it('not found: the registry\'s 404, special-purpose space, no query for either of the latter', async () => {
    const e = await error('/api/whois/ip/8.8.8.8', 404)
    expect(e.details).toMatchObject({ upstream: 'rdap', status: 404, url: base('rdap.arin.net/registry/ip/8.8.8.8') })
    const before = rdap.log.length
    for (const [ip, reason] of [['10.1.2.3', /Private-Use/], ['2001:db8::1', /Documentation/], ['127.0.0.1', /[Ll]oopback/]] as const) {
      const p = await error(`/api/whois/ip/${ip}`, 404)
      expect(p.message).toMatch(reason)
    }
    expect(rdap.log.length).toBe(before)
  })
})

describe('/api/asn (registration)', () => {
  it.each([
    ['AS13335', { asn: 13335, registry: 'ARIN', name: 'CLOUDFLARENET', organization: { name: 'Cloudflare, Inc.' }, abuse_contact: { email: 'abuse@cloudflare.com' } }, 'rdap.arin.net/registry/autnum/13335'],
    ['2914', { asn: 2914, registry: 'ARIN', name: 'NTT-LTD-2914', abuse_contact: { email: 'abuse@ntt.net' } }, 'rdap.arin.net/registry/autnum/2914'],
    ['as8283', { asn: 8283, registry: 'RIPE NCC', name: 'COLOCLUE-AS', organization: { handle: 'ORG-NC22-RIPE' }, abuse_contact: { email: 'abuse@coloclue.net' } }, 'rdap.db.ripe.net/autnum/8283'],
    ['AS9269', { asn: 9269, registry: 'APNIC', name: 'HKBN-AS-AP', country: 'HK', abuse_contact: { email: 'abuse@hkbn.net' } }, 'rdap.apnic.net/autnum/9269'],
    ['AS37271', { asn: 37271, registry: 'AFRINIC', organization: { name: 'Workonline Communications(Pty) Ltd' }, abuse_contact: { email: 'abuse@workonline.africa', inferred: true } }, 'rdap.afrinic.net/rdap/autnum/37271'],
  ])('%s', async (asn, expected, path) => {
    const d = await data(`/api/asn/${asn}`)
    expect(d).toMatchObject({ ...expected, object_class: 'autnum', rdap_url: base(path), bootstrap: { origin: 'live' } })
  })

  it('registry 404s carry the RDAP error body (RIPE, APNIC); special ASNs are refused up front', async () => {
    const ripe = await error('/api/asn/AS8284', 404)
    expect(ripe.details).toMatchObject({ upstream: 'rdap', status: 404, rdap_error: { title: 'not found', description: [] } })
    const apnic = await error('/api/asn/9270', 404)
    expect(apnic.details.rdap_error).toEqual({ title: 'Not Found', description: ['The server has not found anything matching the Request-URI.', 'The syntax used for this request is invalid for this particular server.'] })
    expect((await error('/api/asn/AS64512', 404)).message).toMatch(/private use/)
    expect((await error('/api/asn/AS23456', 404)).message).toMatch(/AS_TRANS/)
    expect((await error('/api/asn/AS4294967296', 400)).code).toBe('bad_request')
  })
})
