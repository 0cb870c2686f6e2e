import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Reader } from 'maxmind'
import type { CountryResponse } from 'maxmind'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatIp } from '../../runtime/ip/format.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import { IPV4_SPECIAL_PURPOSE, IPV6_SPECIAL_PURPOSE } from '../../runtime/ip/special-purpose-data.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { csvLookup } from './asn-csv-reference.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t.close())

const require = createRequire(import.meta.url)
const countryReader = new Reader<CountryResponse & { country_code?: string }>(
  readFileSync(join(dirname(require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/package.json')), 'geo-whois-asn-country.mmdb')),
)
const countryOf = (ip: string) => countryReader.get(ip)?.country_code ?? null

const ip = async (text: string) => {
  const res = await t.json(`/api/ip/${encodeURIComponent(text)}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

/** What the CSV itself says about an address, in the API's shape. */
function expectedAsn(text: string) {
  const parsed = parseIp(text)
  if (!parsed.ok) throw new Error(parsed.error.reason)
  const row = csvLookup(parsed.value.version, parsed.value.value)
  return row && { number: row.asn, name: row.org, looked_up: formatIp(parsed.value) }
}

describe('GET /api/ip/{ip}', () => {
  it('answers every field for 8.8.8.8, ASN, name and country from the bundled data', async () => {
    const res = await t.json('/api/ip/8.8.8.8')
    expect(res.status).toBe(200)
    expect(res.body.meta).toEqual({ cache: 'miss', category: 'network', endpoint: 'network.ip', tier: 'anonymous' })
    const d = res.body.data
    const { data_source, ...rest } = d
    expect(rest).toEqual({
      ip: '8.8.8.8',
      version: 4,
      compressed: '8.8.8.8',
      expanded: '8.8.8.8',
      mixed: null,
      decimal: '134744072',
      hex: '0x08080808',
      binary: '00001000000010000000100000001000',
      reverse_pointer: '8.8.8.8.in-addr.arpa',
      ipv4_mapped: '::ffff:8.8.8.8',
      embedded_ipv4: null,
      classification: { class: 'public', name: 'Administered by ARIN', prefix: '8.0.0.0/8', registry: 'address-space' },
      special_purpose: [],
      bogon: { bogon: false, prefix: null, reason: 'ordinary unicast space in the IANA registries' },
      asn: { number: 15169, name: 'Google LLC', range: { start: '8.8.8.0', end: '8.8.8.255' }, looked_up: '8.8.8.8' },
      country: { code: 'US', looked_up: '8.8.8.8' },
    })
    // The same facts, read straight from the files.
    expect(d.asn).toMatchObject(expectedAsn('8.8.8.8')!)
    expect(d.country.code).toBe(countryOf('8.8.8.8'))
    expect(data_source.asn).toMatchObject({
      name: '@ip-location-db/asn',
      version: '2.3.2026061719',
      date: '2026-06-17',
      licence: 'CC-BY-4.0',
      url: 'https://github.com/sapics/ip-location-db/tree/main/asn',
    })
    expect(data_source.asn.attribution).toContain('https://db-ip.com')
    expect(data_source.country).toMatchObject({ name: '@ip-location-db/geo-whois-asn-country-mmdb', version: '2.3.2026061719', date: '2026-06-17', licence: 'CC-BY-4.0' })
    const age = Math.floor((Date.now() - Date.parse('2026-06-17T00:00:00Z')) / 86_400_000)
    expect(data_source.asn.age_days).toBe(age)
    expect(data_source.country.age_days).toBe(age)
  })

  it.each([
    ['1.1.1.1', 13335],
    ['9.9.9.9', 19281],
    ['208.67.222.222', 36692],
    ['2001:4860:4860::8888', 15169],
    ['2606:4700:4700::1111', 13335],
  ])('%s: ASN %i with the name and range the CSV gives', async (address, asn) => {
    const d = await ip(address)
    const csv = expectedAsn(address)!
    expect(csv.number).toBe(asn)
    expect(d.asn).toMatchObject(csv)
    const parsed = parseIp(address)
    if (!parsed.ok) throw new Error('bad test address')
    const row = csvLookup(parsed.value.version, parsed.value.value)!
    expect(d.asn.range).toEqual({ start: formatIp({ version: parsed.value.version, value: row.start }), end: formatIp({ version: parsed.value.version, value: row.end }) })
    expect(d.country).toEqual({ code: countryOf(address), looked_up: d.ip })
  })

  it('writes IPv6 in every form', async () => {
    const d = await ip('2001:DB8:0::1')
    expect(d).toMatchObject({
      ip: '2001:db8::1',
      version: 6,
      compressed: '2001:db8::1',
      expanded: '2001:0db8:0000:0000:0000:0000:0000:0001',
      mixed: null,
      decimal: '42540766411282592856903984951653826561',
      hex: '0x20010db8000000000000000000000001',
      reverse_pointer: '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa',
      ipv4_mapped: null,
      embedded_ipv4: null,
      classification: { class: 'documentation', name: 'Documentation', prefix: '2001:db8::/32', registry: 'special-purpose' },
      bogon: { bogon: true, prefix: '2001:db8::/32' },
    })
    expect(d.binary).toBe((0x20010db8n << 96n | 1n).toString(2).padStart(128, '0'))
  })

  // Private, loopback, CGNAT, documentation, link-local, multicast, reserved, ...
  it.each([
    ['10.1.2.3', 'private', true, '10.0.0.0/8'],
    ['172.16.5.4', 'private', true, '172.16.0.0/12'],
    ['192.168.0.1', 'private', true, '192.168.0.0/16'],
    ['127.0.0.1', 'loopback', true, '127.0.0.0/8'],
    ['100.64.1.1', 'cgnat', true, '100.64.0.0/10'],
    ['192.0.2.1', 'documentation', true, '192.0.2.0/24'],
    ['198.51.100.7', 'documentation', true, '198.51.100.0/24'],
    ['203.0.113.9', 'documentation', true, '203.0.113.0/24'],
    ['169.254.169.254', 'link-local', true, '169.254.0.0/16'],
    ['0.0.0.0', 'unspecified', true, '0.0.0.0/32'],
    ['255.255.255.255', 'broadcast', true, '255.255.255.255/32'],
    ['240.0.0.1', 'reserved', true, '240.0.0.0/4'],
    ['198.18.0.1', 'benchmarking', true, '198.18.0.0/15'],
    ['192.0.0.9', 'anycast', false, '192.0.0.9/32'],
    ['224.0.0.251', 'multicast', true, '224.0.0.0/8'],
    ['::1', 'loopback', true, '::1/128'],
    ['::', 'unspecified', true, '::/128'],
    ['fe80::1', 'link-local', true, 'fe80::/10'],
    ['fd12:3456::1', 'unique-local', true, 'fc00::/7'],
    ['ff02::1', 'multicast', true, 'ff00::/8'],
    ['2001:db8::1', 'documentation', true, '2001:db8::/32'],
  ])('%s is %s, bogon %s (%s)', async (address, cls, bogon, prefix) => {
    const d = await ip(address)
    expect(d.classification.class).toBe(cls)
    expect(d.bogon.bogon).toBe(bogon)
    expect(d.bogon.prefix ?? d.classification.prefix).toBe(prefix)
    expect(d.asn === null ? null : d.asn.number).toBe(expectedAsn(address)?.number ?? null)
  })

  it('6to4: the embedded IPv4 address, and bogon exactly when it is one', async () => {
    const doc = await ip('2002:c000:204::1')
    expect(doc.classification.class).toBe('6to4')
    expect(doc.embedded_ipv4).toEqual({ kind: '6to4', prefix: '2002::/16', ipv4: '192.0.2.4', rfc: 'RFC 3056' })
    expect(doc.bogon).toEqual({ bogon: true, prefix: '2002::/16', reason: '6to4 (2002::/16) carries the IPv4 bogon 192.0.2.4' })
    const google = await ip('2002:808:808::1')
    expect(google.embedded_ipv4.ipv4).toBe('8.8.8.8')
    expect(google.bogon.bogon).toBe(false)
    // The IPv6 data answers when it has the 6to4 range; else the carried IPv4 address does.
    const own = expectedAsn('2002:808:808::1')
    expect(google.asn).toMatchObject(own ?? { number: 15169, name: 'Google LLC', looked_up: '8.8.8.8' })
  })

  it('Teredo (RFC 4380 example): server, client address and port de-obfuscated', async () => {
    const d = await ip('2001:0:4136:e378:8000:63bf:3fff:fdd2')
    expect(d.classification.class).toBe('teredo')
    expect(d.embedded_ipv4).toEqual({
      kind: 'teredo',
      prefix: '2001::/32',
      ipv4: '192.0.2.45',
      server: '65.54.227.120',
      client_port: 40000,
      flags: 0x8000,
      cone: true,
      rfc: 'RFC 4380',
    })
    expect(d.bogon.bogon).toBe(true)
    expect(d.bogon.reason).toContain('192.0.2.45')
  })

  it('NAT64 (64:ff9b::/96) and IPv4-mapped addresses answer ASN and country for the IPv4 host they carry', async () => {
    const nat64 = await ip('64:ff9b::8.8.8.8')
    expect(nat64.ip).toBe('64:ff9b::808:808')
    expect(nat64.classification.class).toBe('nat64')
    expect(nat64.embedded_ipv4).toEqual({ kind: 'nat64', prefix: '64:ff9b::/96', ipv4: '8.8.8.8', rfc: 'RFC 6052' })
    expect(nat64.bogon.bogon).toBe(false)
    expect(nat64.asn).toMatchObject({ number: 15169, name: 'Google LLC', looked_up: '8.8.8.8' })
    expect(nat64.country).toEqual({ code: countryOf('8.8.8.8'), looked_up: '8.8.8.8' })
    expect((await ip('64:ff9b::a00:1')).bogon.bogon).toBe(true)

    const mapped = await ip('::ffff:1.1.1.1')
    expect(mapped).toMatchObject({ ip: '::ffff:101:101', mixed: '::ffff:1.1.1.1', ipv4_mapped: null })
    expect(mapped.embedded_ipv4).toEqual({ kind: 'mapped', prefix: '::ffff:0:0/96', ipv4: '1.1.1.1', rfc: 'RFC 4291' })
    expect(mapped.classification.class).toBe('ipv4-mapped')
    expect(mapped.bogon.bogon).toBe(true)
    expect(mapped.asn).toMatchObject({ number: 13335, looked_up: '1.1.1.1' })
  })

  it('classifies an address of every entry of the IPv4 and IPv6 special-purpose registries', async () => {
    const entries = [...IPV4_SPECIAL_PURPOSE.entries, ...IPV6_SPECIAL_PURPOSE.entries]
    expect(entries.length).toBeGreaterThanOrEqual(40)
    for (const entry of entries) {
      for (const block of entry.addressBlocks) {
        const address = block.split('/')[0]!
        const d = await ip(address)
        const match = d.special_purpose.find((s: { prefix: string }) => s.prefix === block)
        expect(match, `${address} in ${block}`).toMatchObject({ name: entry.name, class: entry.class, rfcs: [...entry.rfcs] })
        // The most specific entry decides the class.
        expect(d.classification.class, address).toBe(d.special_purpose[0].class)
      }
    }
  })

  it.each([
    ['256.1.1.1', 'octet 1 is 256'],
    ['1.2.3', 'it has 3 parts; an IPv4 address is exactly four decimal octets like 192.0.2.1 (short forms such as 127.1 are not accepted)'],
    ['01.2.3.4', 'octet 1 "01" has a leading zero'],
    ['1.2.3.4.5', 'it has 5 parts; an IPv4 address is exactly four decimal octets'],
    ['0x7f.0.0.1', 'octet 1 "0x7f" is hexadecimal; only decimal octets are accepted (write it as a number 0-255)'],
    ['2130706433', 'a bare number is not accepted; write the address as four dotted decimal octets (2130706433 would be 127.0.0.1)'],
    ['example.com', 'it looks like a host name, not an IP address'],
    ['2001:db8::1::1', '"::" appears more than once; it may stand for only one run of zero groups'],
    ['fe80::1%eth0', 'zone id "%eth0" is not accepted'],
  ])('%s is 400 with a message a person can act on', async (text, reason) => {
    const res = await t.json(`/api/ip/${encodeURIComponent(text)}`)
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.error.code).toBe('bad_request')
    expect(res.body.error.details.param).toBe('ip')
    expect(res.body.error.details.value).toBe(text)
    expect(res.body.error.message).toMatch(/^Invalid "ip": .{20,}/)
    expect(res.body.error.message).toContain(reason)
  })

  it('takes the address as ?ip= too; without one it is a 400', async () => {
    const res = await t.json('/api/ip?ip=1.1.1.1')
    expect(res.status).toBe(200)
    expect(res.body.data.asn.number).toBe(13335)
    const missing = await t.json('/api/ip')
    expect(missing.status).toBe(400)
    expect(missing.body.error.message).toBe('Missing required parameter "ip".')
  })
})

describe('IP data readiness', () => {
  it('/api/ready fails while the ASN data loads (the first probe starts it) and passes once it is loaded', async () => {
    const fresh = await startTestApp()
    try {
      const first = await fresh.json('/api/ready')
      expect(first.status).toBe(503)
      expect(first.body.error.details.checks).toContainEqual(expect.objectContaining({ name: 'ip-data', ok: false, error: expect.stringContaining('loading ASN and country data') }))
      // A lookup waits for the load already under way.
      expect((await fresh.json('/api/ip/1.1.1.1')).body.data.asn.number).toBe(13335)
      const ready = await fresh.json('/api/ready')
      expect(ready.status).toBe(200)
      expect(ready.body.data.checks).toContainEqual(expect.objectContaining({ name: 'ip-data', ok: true }))
      const loaded = fresh.logs.find((l) => l.msg === 'IP data loaded') as { asn: { ipv4Ranges: number; ipv6Ranges: number; overlaps: number } } | undefined
      expect(loaded?.asn.ipv4Ranges).toBeGreaterThan(400_000)
      expect(loaded?.asn.ipv6Ranges).toBeGreaterThan(100_000)
      expect(loaded?.asn.overlaps).toBe(1)
    } finally {
      await fresh.close()
    }
  })
})
