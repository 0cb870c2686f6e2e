import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RawObject } from '../../runtime/raw-json.ts'
import { normalizeAutnum } from '../../plugins/rdap/normalize-autnum.ts'
import { normalizeEntity } from '../../plugins/rdap/normalize-entity.ts'
import { normalizeNetwork } from '../../plugins/rdap/normalize-network.ts'
import { registryName } from '../../plugins/rdap/registry-name.ts'
import { RDAP_FIXTURES } from '../support/fake-rdap.ts'

// Every recorded IP network, autnum and entity answer, normalized, checked against the raw JSON.

const load = (file: string): RawObject => JSON.parse(readFileSync(join(RDAP_FIXTURES, file), 'utf8')) as RawObject

describe('IP networks', () => {
  it('ip_1.1.1.0-24_apnic.json: APNIC-LABS, cidr0, country, abuse from the IRT (pref 1)', () => {
    const n = normalizeNetwork(load('ip_1.1.1.0-24_apnic.json'))
    expect(n).toMatchObject({
      object_class: 'ip network',
      handle: '1.1.1.0 - 1.1.1.255',
      name: 'APNIC-LABS',
      type: 'ASSIGNED PORTABLE',
      ip_version: 4,
      start_address: '1.1.1.0',
      end_address: '1.1.1.255',
      cidrs: ['1.1.1.0/24'],
      cidr_source: 'cidr0',
      country: 'AU',
      port43: 'whois.apnic.net',
      parent_handle: null,
      last_changed: '2020-07-15T13:10:57Z',
      registered: null,
      organization: null,
    })
    expect(n.abuse_contact).toEqual({ handle: 'IRT-APNICRANDNET-AU', name: 'IRT-APNICRANDNET-AU', email: 'helpdesk@apnic.net', phone: null, inferred: false })
    const admin = n.entities.find((e) => e.handle === 'AR302-AP')!
    // tel as text (not a uri), voice and fax told apart; "\\n" in the label split into lines
    expect(admin.phones).toEqual([
      { number: '+61-7-3858-3188', types: ['voice'] },
      { number: '+61-7-3858-3199', types: ['fax'] },
    ])
    expect(admin.address).toEqual(['PO Box 3646', 'South Brisbane, QLD 4101', 'Australia'])
    expect(admin.roles).toEqual(['administrative', 'technical'])
    expect(n.remarks[0]).toEqual({ title: 'description', description: 'APNIC and Cloudflare DNS Resolver project\nRouted globally by AS13335/Cloudflare\nResearch prefix for APNIC Labs', links: [] })
    expect(n.rdap_conformance).toEqual(['history_version_0', 'cidr0', 'rdap_level_0'])
    expect(registryName(n.port43, 'https://rdap.apnic.net/ip/1.1.1.1')).toBe('APNIC')
  })

  it('ip_130.59.0.0-16_ripe.json: no cidr0, so the CIDR is computed from the range; abuse-c mailbox', () => {
    const n = normalizeNetwork(load('ip_130.59.0.0-16_ripe.json'))
    expect(n).toMatchObject({
      handle: '130.59.0.0 - 130.59.255.255',
      name: 'SWITCH-LAN',
      type: 'LEGACY',
      country: 'CH',
      cidrs: ['130.59.0.0/16'],
      cidr_source: 'computed',
      parent_handle: '0.0.0.0 - 255.255.255.255',
      port43: 'whois.ripe.net',
      last_changed: '2021-10-19T07:12:42Z',
      organization: { handle: 'ORG-SG2-RIPE', name: null },
    })
    expect(n.entities.map((e) => e.handle)).toEqual(['ORG-SG2-RIPE', 'RIPE-NCC-LEGACY-MNT', 'SNOC1-RIPE', 'SWITCH-MNT', 'AR31930-RIPE', 'SWITCH-MNT'])
    expect(n.entities.at(-1)!.parent_handle).toBe('AR31930-RIPE')
    expect(n.abuse_contact).toEqual({ handle: 'AR31930-RIPE', name: 'Abuse-C Role', email: 'abuse@switch.ch', phone: null, inferred: false })
    expect(n.entities.find((e) => e.handle === 'AR31930-RIPE')!.address).toEqual(['SWITCH', 'Werdstrasse 2', 'Postfach', '8021 Zurich', 'Switzerland'])
    expect(n.notices.map((x) => x.title)).toEqual(['Filtered', 'Source', 'Terms and Conditions'])
    expect(registryName(n.port43, 'https://rdap.db.ripe.net/ip/130.59.31.80')).toBe('RIPE NCC')
  })

  it('ip_13.64.0.0_arin.json: a range spanning three CIDRs (cidr0), offsets normalized to UTC, org and nested contacts', () => {
    const n = normalizeNetwork(load('ip_13.64.0.0_arin.json'))
    expect(n).toMatchObject({
      handle: 'NET-13-64-0-0-1',
      name: 'MSFT',
      type: 'DIRECT ALLOCATION',
      start_address: '13.64.0.0',
      end_address: '13.107.255.255',
      cidrs: ['13.64.0.0/11', '13.96.0.0/13', '13.104.0.0/14'],
      cidr_source: 'cidr0',
      parent_handle: 'NET-13-0-0-0-0',
      country: null,
      origin_asns: [],
      organization: { handle: 'MSFT', name: 'Microsoft Corporation' },
      // "2015-03-26T13:58:18-04:00" and "2021-12-14T20:28:53-05:00"
      registered: '2015-03-26T17:58:18Z',
      last_changed: '2021-12-15T01:28:53Z',
    })
    expect(n.status.map((s) => s.code)).toEqual(['active'])
    expect(n.abuse_contact).toEqual({ handle: 'MAC74-ARIN', name: 'Microsoft Abuse Contact', email: 'abuse@microsoft.com', phone: '+1-425-882-8080', inferred: false })
    expect(n.entities.filter((e) => e.parent_handle === 'MSFT').map((e) => e.handle)).toEqual(['MRPD-ARIN', 'IPHOS5-ARIN', 'MAC74-ARIN'])
    expect(n.entities.find((e) => e.handle === 'MRPD-ARIN')).toMatchObject({ organization: 'Microsoft Routing, Peering, and DNS', emails: ['IOC@microsoft.com'] })
  })

  it('ip_2001-4860_arin.json: IPv6, arin_originas0 origin AS15169, abuse entity nested in the org', () => {
    const n = normalizeNetwork(load('ip_2001-4860_arin.json'))
    expect(n).toMatchObject({
      handle: 'NET6-2001-4860-1',
      name: 'GOOGLE-IPV6',
      ip_version: 6,
      start_address: '2001:4860::',
      end_address: '2001:4860:ffff:ffff:ffff:ffff:ffff:ffff',
      cidrs: ['2001:4860::/32'],
      cidr_source: 'cidr0',
      parent_handle: 'NET6-2001-4800-0',
      origin_asns: [15169],
      organization: { handle: 'GOGL', name: 'Google LLC' },
      registered: '2005-03-14T16:31:08Z',
    })
    // ZG39-ARIN (noc, technical, abuse) is at the top level, ABUSE5250-ARIN nested in GOGL: top level first
    expect(n.abuse_contact).toMatchObject({ handle: 'ZG39-ARIN', email: 'arin-contact@google.com', phone: '+1-650-253-0000' })
    expect(registryName(n.port43, 'x')).toBe('ARIN')
  })

  it('ip_206.41.110.0_arin.json: CHIX, remarks, nested contacts with ext phones', () => {
    const raw = load('ip_206.41.110.0_arin.json')
    const n = normalizeNetwork(raw)
    expect(n).toMatchObject({ handle: 'NET-206-41-110-0-1', name: 'CHIX', cidrs: ['206.41.110.0/24'], organization: { handle: 'UIEL', name: 'United-IX' } })
    expect(n.rdap_conformance).toContain('nro_rdap_profile_0')
    expect(n.remarks).toHaveLength(1)
    expect(n.abuse_contact).toMatchObject({ handle: 'UIE-ARIN', email: 'neteng@unitedix.net', phone: '+1-877-432-2656' })
    expect(n.entities.find((e) => e.handle === 'NETWO9391-ARIN')!.phones[0]!.number).toBe('+1-877-432-2656;ext201')
  })

  it('computes CIDRs for ranges that are not one block, and tolerates broken ranges', () => {
    expect(normalizeNetwork({ startAddress: '192.0.2.0', endAddress: '192.0.3.127' }).cidrs).toEqual(['192.0.2.0/24', '192.0.3.0/25'])
    expect(normalizeNetwork({ startAddress: '2001:db8::', endAddress: '2001:db8::ffff', ipVersion: 'v6' }).cidrs).toEqual(['2001:db8::/112'])
    expect(normalizeNetwork({ startAddress: '10.0.0.9', endAddress: '10.0.0.1' })).toMatchObject({ cidrs: [], cidr_source: null })
    expect(normalizeNetwork({ startAddress: 'nope' })).toMatchObject({ cidrs: [], start_address: 'nope', ip_version: 4 })
  })
})

describe('autnums', () => {
  it('autnum_AS13335_arin.json', () => {
    const a = normalizeAutnum(load('autnum_AS13335_arin.json'))
    expect(a).toMatchObject({
      object_class: 'autnum',
      handle: 'AS13335',
      name: 'CLOUDFLARENET',
      start_autnum: 13335,
      end_autnum: 13335,
      country: null,
      port43: 'whois.arin.net',
      registered: '2010-07-14T22:35:57Z',
      last_changed: '2017-02-17T23:04:32Z',
      organization: { handle: 'CLOUD14', name: 'Cloudflare, Inc.' },
    })
    expect(a.abuse_contact).toEqual({ handle: 'ABUSE2916-ARIN', name: 'Abuse', email: 'abuse@cloudflare.com', phone: '+1-650-319-8930', inferred: false })
    expect(a.entities.filter((e) => e.parent_handle === null).map((e) => e.handle)).toEqual(['CLOUD14', 'ABUSE2916-ARIN', 'ADMIN2521-ARIN', 'NOC11962-ARIN'])
  })

  it('autnum_AS2914_arin.json', () => {
    const a = normalizeAutnum(load('autnum_AS2914_arin.json'))
    expect(a).toMatchObject({ handle: 'AS2914', name: 'NTT-LTD-2914', start_autnum: 2914, registered: '1998-12-07T05:00:00Z', organization: { handle: 'NTTAM-1', name: 'NTT America, Inc.' } })
    expect(a.status.map((s) => s.code)).toEqual(['active'])
    expect(a.abuse_contact).toMatchObject({ handle: 'NAAC-ARIN', email: 'abuse@ntt.net', phone: '+1-877-688-6625' })
  })

  it('autnum_AS8283_ripe.json: the org among registrant maintainers; abuse mailbox marked type=abuse among three', () => {
    const a = normalizeAutnum(load('autnum_AS8283_ripe.json'))
    expect(a).toMatchObject({ handle: 'AS8283', name: 'COLOCLUE-AS', registered: '2003-06-23T14:40:34Z', last_changed: '2023-11-27T23:02:44Z', port43: 'whois.ripe.net' })
    // registrants: COLOCLUE-MNT (maintainer), ORG-NC22-RIPE (kind org), RIPE-NCC-END-MNT
    expect(a.organization).toEqual({ handle: 'ORG-NC22-RIPE', name: 'Netwerkvereniging Coloclue' })
    expect(a.abuse_contact).toEqual({ handle: 'CLUE1-RIPE', name: 'Netwerkvereniging Coloclue', email: 'abuse@coloclue.net', phone: '+31651387718', inferred: false })
    expect(a.notices).toHaveLength(4)
  })

  it('autnum_AS9269_apnic.json: country HK, abuse mailbox by pref', () => {
    const a = normalizeAutnum(load('autnum_AS9269_apnic.json'))
    expect(a).toMatchObject({ handle: 'AS9269', name: 'HKBN-AS-AP', country: 'HK', registered: '2008-09-04T06:40:30Z', organization: { handle: 'ORG-HKBN1-AP', name: 'Hong Kong Broadband Network Ltd' } })
    expect(a.abuse_contact).toEqual({ handle: 'IRT-HKBN-HK', name: 'IRT-HKBN-HK', email: 'abuse@hkbn.net', phone: null, inferred: false })
    expect(a.remarks[0]!.description).toBe('Hong Kong Broadband Network Ltd.')
  })

  it('autnum_AS37271_afrinic.json: no abuse role, so the abuse@ mailbox of the org is inferred; tel: prefixes in text stripped', () => {
    const a = normalizeAutnum(load('autnum_AS37271_afrinic.json'))
    expect(a).toMatchObject({ handle: 'AS37271', name: 'ORG-WCL1-AFRINIC', start_autnum: 37271, port43: 'whois.afrinic.net', registered: '2010-10-25T10:14:00Z' })
    expect(a.organization).toEqual({ handle: 'ORG-WCL1-AFRINIC', name: 'Workonline Communications(Pty) Ltd' })
    expect(a.abuse_contact).toEqual({ handle: 'ORG-WCL1-AFRINIC', name: 'Workonline Communications(Pty) Ltd', email: 'abuse@workonline.africa', phone: '+27-21-200-9000', inferred: true })
    expect(a.entities[0]!.phones.map((p) => p.number)).toEqual(['+27-21-200-9000', '+27-21-200-9009'])
    expect(registryName(a.port43, 'x')).toBe('AFRINIC')
  })
})

describe('entities', () => {
  it('entity_GOVI_arin.json: an org with its networks and autnums', () => {
    const e = normalizeEntity(load('entity_GOVI_arin.json'))
    expect(e.contact).toMatchObject({ handle: 'GOVI', name: 'Govital Internet Inc.', kind: 'org', address: ['3005 Deziel Drive', 'Windsor', 'ON', 'N8W 5A5', 'Canada'] })
    expect(e).toMatchObject({ registered: '2001-05-08T04:00:00Z', last_changed: '2017-01-28T13:32:29Z', port43: 'whois.arin.net' })
    expect(e.autnums).toEqual([{ handle: 'AS393996', name: expect.any(String), start_autnum: 393996, end_autnum: 393996 }])
    expect(e.networks.map((n) => [n.handle, n.start_address, n.end_address])).toEqual([
      ['NET6-2602-FE74-1', '2602:fe74::', '2602:fe74:fff:ffff:ffff:ffff:ffff:ffff'],
      ['NET-208-90-68-0-1', '208.90.68.0', '208.90.71.255'],
    ])
    expect(e.entities.map((x) => [x.handle, x.roles])).toEqual([
      ['GTS7-ARIN', ['technical', 'noc', 'abuse']],
      ['SKA58-ARIN', ['administrative']],
    ])
    expect(e.abuse_contact).toMatchObject({ handle: 'GTS7-ARIN', email: 'support@govital.net', phone: '+1-519-254-5115' })
  })

  it('entity_CLUE1-RIPE_ripe.json: a role object; adr value null, label kept', () => {
    const e = normalizeEntity(load('entity_CLUE1-RIPE_ripe.json'))
    expect(e.contact).toMatchObject({
      handle: 'CLUE1-RIPE',
      name: 'Netwerkvereniging Coloclue',
      kind: 'group',
      address: ['Frans Duwaerstraat 34', '1318AC Almere', 'Netherlands'],
      phones: [{ number: '+31651387718', types: ['voice'] }],
      emails: ['ops@coloclue.net', 'routers@coloclue.net'],
    })
    expect(e.entities).toHaveLength(11)
    expect(e.entities.every((x) => x.parent_handle === null && x.name === null)).toBe(true)
    expect(e.last_changed).toBe('2017-09-21T23:55:48Z')
  })
})
