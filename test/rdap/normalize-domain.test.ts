import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RawObject } from '../../runtime/raw-json.ts'
import { isThin, normalizeDomain, registrarLink } from '../../plugins/rdap/normalize-domain.ts'
import { normalizeNameserverObject } from '../../plugins/rdap/normalize-entity.ts'
import { RDAP_FIXTURES } from '../support/fake-rdap.ts'

// Every recorded domain answer, normalized, checked against what the raw JSON says.

const load = (file: string): RawObject => JSON.parse(readFileSync(join(RDAP_FIXTURES, file), 'utf8')) as RawObject

describe('domain_google.com_verisign.json (.com, thin registry)', () => {
  const raw = load('domain_google.com_verisign.json')
  const d = normalizeDomain(raw)

  it('names, handle, conformance', () => {
    expect(d).toMatchObject({ object_class: 'domain', ldh_name: 'GOOGLE.COM', unicode_name: null, handle: '2138514_DOMAIN_COM-VRSN', port43: null })
    expect(d.rdap_conformance).toEqual(['rdap_level_0', 'icann_rdap_technical_implementation_guide_0', 'icann_rdap_response_profile_0'])
  })

  it('six status values, each with its EPP code and meaning', () => {
    expect(d.status.map((s) => [s.code, s.epp])).toEqual([
      ['client delete prohibited', 'clientDeleteProhibited'],
      ['client transfer prohibited', 'clientTransferProhibited'],
      ['client update prohibited', 'clientUpdateProhibited'],
      ['server delete prohibited', 'serverDeleteProhibited'],
      ['server transfer prohibited', 'serverTransferProhibited'],
      ['server update prohibited', 'serverUpdateProhibited'],
    ])
    for (const s of d.status) expect(s.meaning).toMatch(/\w+/)
  })

  it('events and the lifecycle dates', () => {
    expect(d.events).toEqual([
      { action: 'registration', date: '1997-09-15T04:00:00Z', actor: null },
      { action: 'expiration', date: '2028-09-14T04:00:00Z', actor: null },
      { action: 'last update of rdap database', date: '2021-06-09T09:34:01Z', actor: null },
    ])
    expect(d).toMatchObject({ registered: '1997-09-15T04:00:00Z', expires: '2028-09-14T04:00:00Z', last_changed: null, rdap_updated: '2021-06-09T09:34:01Z' })
  })

  it('registrar with IANA id 292 and its nested abuse contact (jCard tel uri + email)', () => {
    expect(d.registrar).toEqual({
      handle: '292',
      name: 'MarkMonitor Inc.',
      iana_id: '292',
      url: null,
      abuse_email: 'abusecomplaints@markmonitor.com',
      abuse_phone: '+1.2083895740',
    })
    expect(d.entities.map((e) => [e.handle, e.roles, e.parent_handle])).toEqual([
      ['292', ['registrar'], null],
      [null, ['abuse'], '292'],
    ])
    expect(d.entities[0]!.public_ids).toEqual([{ type: 'IANA Registrar ID', identifier: '292' }])
    expect(d.abuse_contact).toEqual({ handle: null, name: null, email: 'abusecomplaints@markmonitor.com', phone: '+1.2083895740', inferred: false })
    expect(d.registrant).toBeNull()
  })

  it('name servers lowercased, no glue', () => {
    expect(d.nameservers).toEqual(['ns1', 'ns2', 'ns3', 'ns4'].map((n) => ({ name: `${n}.google.com`, unicode_name: null, handle: null, ipv4: [], ipv6: [] })))
  })

  it('secureDNS: the file has the member twice; JSON.parse keeps the last (delegationSigned true)', () => {
    const text = readFileSync(join(RDAP_FIXTURES, 'domain_google.com_verisign.json'), 'utf8')
    expect(text.match(/"secureDNS"/g)).toHaveLength(2)
    expect(d.secure_dns).toEqual({ delegation_signed: true, zone_signed: null, max_sig_life: null, ds: [], keys: [] })
  })

  it('notices keep title, text and links', () => {
    expect(d.notices.map((n) => n.title)).toEqual(['Terms of Use', 'Status Codes', 'RDDS Inaccuracy Complaint Form'])
    expect(d.notices[1]).toEqual({ title: 'Status Codes', description: 'For more information on domain status codes, please visit https://icann.org/epp', links: ['https://icann.org/epp'] })
  })

  it('is thin, and links to the registrar record', () => {
    expect(isThin(d)).toBe(true)
    expect(registrarLink(raw)).toBe('https://rdap.markmonitor.com/rdap/domain/GOOGLE.COM')
    expect(d.links).toContainEqual({ rel: 'self', href: 'https://rdap.verisign.com/com/v1/domain/GOOGLE.COM', type: 'application/rdap+json' })
  })
})

describe('domain_themarquetry.com_verisign.json (.com, registrar.eu)', () => {
  const raw = load('domain_themarquetry.com_verisign.json')
  const d = normalizeDomain(raw)
  it('all fields', () => {
    expect(d.ldh_name).toBe('THEMARQUETRY.COM')
    expect(d.handle).toBe('2598322308_DOMAIN_COM-VRSN')
    expect(d.status).toEqual([{ code: 'client transfer prohibited', epp: 'clientTransferProhibited', meaning: expect.any(String) }])
    expect(d).toMatchObject({ registered: '2021-03-16T17:07:37Z', expires: '2022-03-16T17:07:37Z', rdap_updated: '2022-01-20T12:00:51Z' })
    // JSON-escaped "\/" in the name reads as a plain slash
    expect(d.registrar).toEqual({ handle: '1647', name: 'Hosting Concepts B.V. d/b/a Registrar.eu', iana_id: '1647', url: null, abuse_email: 'abuse@registrar.eu', abuse_phone: '+31.104482297' })
    expect(d.nameservers.map((n) => n.name)).toEqual(['ns1.dns-parking.com', 'ns2.dns-parking.com'])
    expect(d.secure_dns.delegation_signed).toBe(false)
    expect(registrarLink(raw)).toBe('https://rdap.registrar.eu/v1/domain/THEMARQUETRY.COM')
    expect(isThin(d)).toBe(true)
  })
})

describe('domain_20c.com_verisign.json (.com, nulls and empty strings)', () => {
  const raw = load('domain_20c.com_verisign.json')
  const d = normalizeDomain(raw)
  it('empty port43, null rel/value and null unicodeName are absent values, not text', () => {
    expect(d.port43).toBeNull()
    expect(d.unicode_name).toBeNull()
    expect(d.notices[0]!.links).toEqual(['https://www.verisign.com/domain-names/registration-data-access-protocol/terms-service/index.xhtml'])
    expect(d.entities[1]!.handle).toBeNull() // "handle": ""
  })
  it('events incl. last changed; registrar without publicIds', () => {
    expect(d).toMatchObject({ registered: '2004-06-28T18:28:14Z', expires: '2025-06-28T18:28:14Z', last_changed: '2024-06-25T03:31:37Z', rdap_updated: '2024-07-24T18:48:30Z' })
    expect(d.registrar).toEqual({ handle: '113', name: 'CSL Computer Service Langenbach GmbH d/b/a joker.com', iana_id: null, url: null, abuse_email: 'abuse@joker.com', abuse_phone: '+49.21186767447' })
    expect(d.status).toEqual([])
  })
  it('secureDNS with zeroSigned null and empty dsData; four name servers', () => {
    expect(d.secure_dns).toEqual({ delegation_signed: false, zone_signed: null, max_sig_life: null, ds: [], keys: [] })
    expect(d.nameservers.map((n) => n.name)).toEqual(['ns-1468.awsdns-55.org', 'ns-1771.awsdns-29.co.uk', 'ns-327.awsdns-40.com', 'ns-545.awsdns-04.net'])
    expect(registrarLink(raw)).toBe('https://rdap.joker.com/domain/20C.COM')
  })
})

describe('domain_norway.no_norid.json (ccTLD, full contacts)', () => {
  const raw = load('domain_norway.no_norid.json')
  const d = normalizeDomain(raw)
  it('names, handle, dates (no expiration event at Norid)', () => {
    expect(d).toMatchObject({ ldh_name: 'norway.no', handle: 'NOR34044D-NORID', registered: '2017-01-24T12:09:23Z', last_changed: '2021-01-14T05:16:59Z', expires: null })
    expect(d.rdap_conformance).toContain('rdap_objectTag_level_0')
  })
  it('registrar reg42-NORID with its org number and Norid id (no IANA id), contact details from jCard', () => {
    expect(d.registrar).toEqual({ handle: 'reg42-NORID', name: 'Domeneshop AS', iana_id: null, url: 'https://domeneshop.no', abuse_email: null, abuse_phone: null })
    const registrar = d.entities.find((e) => e.handle === 'reg42-NORID')!
    expect(registrar).toMatchObject({
      kind: 'org',
      emails: ['kundeservice@domeneshop.no'],
      phones: [{ number: '+47.22943333', types: ['voice'] }],
      address: ['Christian Krohgs gate 16', 'Oslo', 'NO-0186', 'NORWAY'],
      public_ids: [
        { type: 'Norwegian organization number', identifier: '976769678' },
        { type: 'Norid registrar ID', identifier: 'reg42' },
      ],
      events: [
        { action: 'registration', date: '2010-10-01T12:07:21Z', actor: null },
        { action: 'last changed', date: '2021-06-02T19:15:04Z', actor: null },
      ],
    })
  })
  it('technical contact; no abuse role, so the abuse contact is absent (no abuse@ mailbox either)', () => {
    expect(d.entities.find((e) => e.roles.includes('technical'))).toMatchObject({ handle: 'DH21326R-NORID', name: 'Domeneshop Hostmaster', kind: 'group', emails: ['hostmaster@domeneshop.no'] })
    expect(d.abuse_contact).toBeNull()
    expect(isThin(d)).toBe(false)
    expect(registrarLink(raw)).toBeNull()
  })
  it('name servers with handles; notice lines joined', () => {
    expect(d.nameservers.map((n) => [n.name, n.handle])).toEqual([
      ['ns1-09.azure-dns.com', 'NSAZ50H-NORID'],
      ['ns2-09.azure-dns.net', 'NSAZ51H-NORID'],
      ['ns3-09.azure-dns.org', 'NSAZ52H-NORID'],
      ['ns4-09.azure-dns.info', 'NSAZ53H-NORID'],
    ])
    expect(d.notices[0]!.title).toBe('Terms of use')
    expect(d.notices[0]!.description.split('\n')).toHaveLength(11)
    expect(d.notices[0]!.links).toEqual(['https://www.norid.no/en/domeneoppslag/vilkar'])
  })
})

describe('domain_example.cz_nic.cz.json (ccTLD, FRED extras)', () => {
  const d = normalizeDomain(load('domain_example.cz_nic.cz.json'))
  it('status active = EPP ok; dates with +00:00 offsets; transfer event', () => {
    expect(d.status).toEqual([{ code: 'active', epp: 'ok', meaning: expect.any(String) }])
    expect(d).toMatchObject({ ldh_name: 'example.cz', handle: 'example.cz', port43: 'whois.nic.cz', registered: '2004-08-30T22:55:00Z', expires: '2019-08-30T12:00:00Z' })
    expect(d.events.map((e) => e.action)).toEqual(['registration', 'expiration', 'transfer'])
  })
  it('registrant, registrar and admin by handle only (no jCard); standard nameservers, fred_nsset ignored', () => {
    expect(d.registrant).toMatchObject({ handle: 'SB:EXAMPLE', roles: ['registrant'], name: null, emails: [] })
    expect(d.registrar).toEqual({ handle: 'REG-INTERNET-CZ', name: null, iana_id: null, url: null, abuse_email: null, abuse_phone: null })
    expect(d.entities.map((e) => e.roles[0])).toEqual(['registrant', 'registrar', 'administrative'])
    expect(d.nameservers.map((n) => n.name)).toEqual(['ns2.pipni.cz', 'ns3.pipni.cz', 'ns.pipni.cz'])
    expect(d.secure_dns.delegation_signed).toBeNull()
    expect(d.notices[0]!.title).toBe('Disclaimer')
  })
})

describe('nameserver_ns2.pipni.cz_nic.cz.json', () => {
  it('a nameserver object on its own', () => {
    const n = normalizeNameserverObject(load('nameserver_ns2.pipni.cz_nic.cz.json'))
    expect(n).toMatchObject({ object_class: 'nameserver', name: 'ns2.pipni.cz', handle: 'ns2.pipni.cz', ipv4: [], ipv6: [], rdap_conformance: ['rdap_level_0'] })
    expect(n.links).toEqual([{ rel: 'self', href: 'https://rdap.nic.cz/nameserver/ns2.pipni.cz', type: 'application/rdap+json' }])
  })
})

describe('secureDNS with DS and key data, glue addresses', () => {
  it('reads dsData/keyData (RFC 9083 §5.3)', () => {
    const d = normalizeDomain({
      objectClassName: 'domain',
      ldhName: 'xn--bcher-kva.example',
      unicodeName: 'bücher.example',
      secureDNS: {
        zoneSigned: true,
        delegationSigned: true,
        maxSigLife: 604800,
        dsData: [{ keyTag: 12345, algorithm: 13, digestType: 2, digest: 'abcdef0123' }],
        keyData: [{ flags: 257, protocol: 3, algorithm: 13, publicKey: 'AwEAAc==' }],
      },
      nameservers: [{ objectClassName: 'nameserver', ldhName: 'NS1.Example.', ipAddresses: { v4: ['192.0.2.1'], v6: ['2001:db8::1'] } }, { ldhName: 'ns1.example' }],
    })
    expect(d.unicode_name).toBe('bücher.example')
    expect(d.secure_dns).toEqual({
      delegation_signed: true,
      zone_signed: true,
      max_sig_life: 604800,
      ds: [{ key_tag: 12345, algorithm: 13, digest_type: 2, digest: 'ABCDEF0123' }],
      keys: [{ flags: 257, protocol: 3, algorithm: 13, public_key: 'AwEAAc==' }],
    })
    expect(d.nameservers).toEqual([{ name: 'ns1.example', unicode_name: null, handle: null, ipv4: ['192.0.2.1'], ipv6: ['2001:db8::1'] }])
  })

  it('garbage members degrade to empty values', () => {
    const d = normalizeDomain({ ldhName: 42, status: 'active', events: [{ eventAction: 'registration' }, null], entities: {}, nameservers: [null, 'x'], secureDNS: [] })
    expect(d).toMatchObject({ ldh_name: null, status: [], events: [], entities: [], nameservers: [], registrar: null })
    expect(d.secure_dns).toEqual({ delegation_signed: null, zone_signed: null, max_sig_life: null, ds: [], keys: [] })
  })
})
