// The loopback authoritative server itself: it loads every fixture zone, answers a
// resolver that is not ours (node:dns / c-ares), and follows authoritative semantics.

import { Resolver } from 'node:dns/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDnsClient, type DnsClient } from '../../runtime/net/dns/dns-client.ts'
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts'
import { buildZone } from '../support/dns-zone.ts'
import { loadZone, parseZone, ZoneSyntaxError } from '../support/zone-file.ts'
import { fixture, TYPES_ZONE } from './test-zones.ts'

describe('zone files', () => {
  it.each([
    ['example.org.zone', 'example.org', { SOA: 1, NS: 5, A: 4, DS: 1, AAAA: 2 }],
    ['example.rfc4035.zone', 'example', { SOA: 1, NS: 6, MX: 4, DNSKEY: 2, DS: 1, A: 8, HINFO: 2, AAAA: 2 }],
    ['example.rfc5155.zone', 'example', { SOA: 1, AAAA: 2, HINFO: 2, A: 9, MX: 4, NS: 6, DS: 1, NSEC3PARAM: 1, DNSKEY: 2 }],
    ['root-servers.net.rfc8976.zone', 'root-servers.net', { SOA: 2, NS: 13, AAAA: 13, A: 13, MX: 2, ZONEMD: 1 }],
    ['uri.arpa.rfc8976.zone', 'uri.arpa', { SOA: 1, RRSIG: 15, NS: 5, MX: 1, DNSKEY: 3, ZONEMD: 1, NSEC: 5, NAPTR: 4 }],
  ])('parses %s', (file, origin, counts) => {
    const records = loadZone(fixture(file))
    const byType: Record<string, number> = {}
    for (const r of records) byType[r.type] = (byType[r.type] ?? 0) + 1
    expect(byType).toEqual(counts)
    const zone = buildZone(records)
    expect(zone.origin).toBe(origin)
  })

  it('handles $ORIGIN, @, relative names, blank owners, TTL units and TTL/class in either order', () => {
    const records = parseZone(`$TTL 1h
$ORIGIN zone.test.
@ IN SOA ns hostmaster 1 2h 30m 2w 5m
  NS ns.other.test.
ns 60 IN A 192.0.2.1
www IN 1d30m CNAME ns
$ORIGIN sub.zone.test.
x A 192.0.2.2
`)
    expect(records.map((r) => [r.owner, r.type, r.ttl])).toEqual([
      ['zone.test', 'SOA', 3600],
      ['zone.test', 'NS', 3600],
      ['ns.zone.test', 'A', 60],
      ['www.zone.test', 'CNAME', 88200],
      ['x.sub.zone.test', 'A', 3600],
    ])
    // SOA timers accept units too: refresh 2h = 7200.
    expect(records[0]?.rdata.subarray(-16, -12).readUInt32BE(0)).toBe(7200)
  })

  it('reads escapes in names and strings, and RFC 3597 generic RDATA', () => {
    const [txt, generic, dotted] = parseZone(`$ORIGIN e.test.
$TTL 60
t TXT "a\\"b" "\\065\\\\"
g TYPE999 \\# 3 abcdef
a\\.b A 192.0.2.1
`)
    expect(txt?.rdata.toString('latin1')).toBe('\x03a"b\x02A\\')
    expect(generic).toMatchObject({ type: 'TYPE999', typeCode: 999 })
    expect(generic?.rdata.toString('hex')).toBe('abcdef')
    expect(dotted?.ownerWire.toString('latin1')).toBe('\x03a.b\x01e\x04test\x00')
    expect(dotted?.owner).toBe('a\\.b.e.test')
  })

  it('reports the line of a bad record', () => {
    expect(() => parseZone('$ORIGIN e.test.\n$TTL 60\nok A 192.0.2.1\nbad A 300.1.1.1\n')).toThrow(ZoneSyntaxError)
    expect(() => parseZone('$ORIGIN e.test.\n$TTL 60\nok A 192.0.2.1\nbad A 300.1.1.1\n')).toThrow(/line 4: A: bad IPv4/)
    expect(() => parseZone('x.test. 60 IN BOGUS 1\n')).toThrow(/unknown type "BOGUS"/)
    expect(() => parseZone('x.test. IN A 192.0.2.1\n')).toThrow(/no TTL/)
    expect(() => parseZone('x.test. 60 IN TXT ( "a"\n')).toThrow(/unbalanced/)
  })
})

describe('the server', () => {
  let server: TestDnsServer
  let client: DnsClient

  beforeAll(async () => {
    server = await startDnsServer({
      host: '127.0.0.3',
      zones: [TYPES_ZONE, fixture('example.org.zone'), fixture('uri.arpa.rfc8976.zone'), fixture('example.rfc4035.zone'), fixture('root-servers.net.rfc8976.zone')],
    })
    client = createDnsClient({ servers: [{ host: server.host, port: server.port }], timeoutMs: 1000, retries: 0 })
  })
  afterAll(async () => {
    await server.close()
  })

  it('refuses to listen anywhere but loopback', async () => {
    await expect(startDnsServer({ host: '0.0.0.0', zones: [] })).rejects.toThrow(/only listens on loopback/)
    await expect(startDnsServer({ host: '192.0.2.1', zones: [] })).rejects.toThrow(/only listens on loopback/)
  })

  it('listens on UDP and TCP on the same port, also a port asked for', async () => {
    expect((await client.query('types.test', 'A')).transport).toBe('udp')
    expect((await client.query('types.test', 'A', { tcp: true })).transport).toBe('tcp')
    const fixed = await startDnsServer({ host: '127.0.0.4', port: server.port, zones: [TYPES_ZONE] })
    try {
      expect(fixed.port).toBe(server.port)
      const answer = await client.query('types.test', 'A', { server: { host: fixed.host, port: fixed.port }, tcp: true })
      expect(answer.server.host).toBe('127.0.0.4')
    } finally {
      await fixed.close()
    }
  })

  it('answers node:dns (c-ares), a resolver that is not ours', async () => {
    const resolver = new Resolver({ timeout: 1000, tries: 1 })
    resolver.setServers([`${server.host}:${server.port}`])
    expect(await resolver.resolve4('example.org')).toEqual(['128.140.76.106'])
    expect(await resolver.resolve6('a.root-servers.net')).toEqual(['2001:503:ba3e::2:30'])
    expect(await resolver.resolveMx('example')).toEqual([{ priority: 1, exchange: 'xx.example' }])
    expect(await resolver.resolveTxt('types.test')).toEqual([['v=spf1 ip4:192.0.2.0/24 ', '-all']])
    expect(await resolver.resolveSoa('uri.arpa')).toMatchObject({ nsname: 'sns.dns.icann.org', hostmaster: 'noc.dns.icann.org', serial: 2018100702 })
    expect(await resolver.resolveCaa('types.test')).toEqual([{ critical: 0, issue: 'letsencrypt.org' }, { critical: 128, iodef: 'mailto:security@types.test' }])
    await expect(resolver.resolve4('nope.example.org')).rejects.toMatchObject({ code: 'ENOTFOUND' })
    await expect(resolver.resolve4('not-served.invalid')).rejects.toMatchObject({ code: 'EREFUSED' })
    expect(server.log.some((e) => e.name === 'example.org' && e.type === 'A')).toBe(true)
  })

  it('logs each query with transport, id, name, type and source', async () => {
    await client.query('Types.Test', 'MX', { dnssec: true })
    expect(server.log.at(-1)).toMatchObject({
      transport: 'udp',
      name: 'Types.Test',
      type: 'MX',
      class: 'IN',
      from: { address: '127.0.0.1' },
      dnssecOk: true,
      udpPayloadSize: 1232,
      fault: null,
    })
    expect(server.log.at(-1)?.id).toEqual(expect.any(Number))
  })

  it('NXDOMAIN with the SOA at its negative TTL in authority', async () => {
    const answer = await client.query('missing.types.test', 'A')
    expect(answer).toMatchObject({ rcode: 'NXDOMAIN', flags: { aa: true }, answers: [] })
    expect(answer.authorities).toEqual([expect.objectContaining({ name: 'types.test', type: 'SOA', ttl: 60 })])
  })

  it('NODATA: NOERROR, no answers, the SOA in authority; empty non-terminals too', async () => {
    for (const [name, type] of [['mail.types.test', 'AAAA'], ['b.ent.types.test', 'A']] as const) {
      const answer = await client.query(name, type)
      expect(answer).toMatchObject({ rcode: 'NOERROR', flags: { aa: true }, answers: [] })
      expect(answer.authorities.map((r) => r.type)).toEqual(['SOA'])
    }
  })

  it('follows CNAME chains inside the zone', async () => {
    const answer = await client.query('alias.types.test', 'A')
    expect(answer.answers.map((r) => [r.name, r.type, r.data])).toEqual([
      ['alias.types.test', 'CNAME', { target: 'www.types.test' }],
      ['www.types.test', 'CNAME', { target: 'types.test' }],
      ['types.test', 'A', { address: '192.0.2.1' }],
    ])
    const dangling = await client.query('dangling.types.test', 'A')
    expect(dangling.rcode).toBe('NXDOMAIN')
    expect(dangling.answers.map((r) => r.type)).toEqual(['CNAME'])
    const external = await client.query('external.types.test', 'A')
    expect(external).toMatchObject({ rcode: 'NOERROR', answers: [{ type: 'CNAME', data: { target: 'target.elsewhere.test' } }] })
  })

  it('refers below a delegation, with glue, and the DS when DO is set', async () => {
    const referral = await client.query('deep.sub.types.test', 'A')
    expect(referral).toMatchObject({ rcode: 'NOERROR', flags: { aa: false }, answers: [] })
    expect(referral.authorities).toEqual([{ name: 'sub.types.test', type: 'NS', class: 'IN', ttl: 300, data: { target: 'ns.sub.types.test' } }])
    expect(referral.additionals).toEqual([{ name: 'ns.sub.types.test', type: 'A', class: 'IN', ttl: 300, data: { address: '192.0.2.99' } }])
    const signed = await client.query('deep.sub.types.test', 'A', { dnssec: true })
    expect(signed.authorities.map((r) => r.type)).toEqual(['NS', 'DS'])
    // The DS itself is the parent's data: an authoritative answer.
    expect(await client.query('sub.types.test', 'DS')).toMatchObject({ flags: { aa: true }, answers: [{ type: 'DS' }] })
    // Occluded names below a cut are not answered authoritatively (example.org fixture).
    expect((await client.query('occluded.insecure-deleg.example.org', 'A')).flags.aa).toBe(false)
  })

  it('synthesizes wildcard answers (RFC 4592), with the RRSIG when DO is set', async () => {
    const answer = await client.query('anything.wild.types.test', 'A', { dnssec: true })
    expect(answer.answers.map((r) => [r.name, r.type])).toEqual([
      ['anything.wild.types.test', 'A'],
      ['anything.wild.types.test', 'RRSIG'],
    ])
    expect(answer.answers[1]?.data).toMatchObject({ labels: 3 })
  })

  it('denies existence with the NSEC records of a signed zone when DO is set', async () => {
    const answer = await client.query('zzz.uri.arpa', 'A', { dnssec: true })
    expect(answer.rcode).toBe('NXDOMAIN')
    expect(answer.authorities.map((r) => `${r.name} ${r.type}`)).toEqual(['uri.arpa SOA', 'uri.arpa RRSIG', 'urn.uri.arpa NSEC', 'urn.uri.arpa RRSIG', 'uri.arpa NSEC', 'uri.arpa RRSIG'])
    const nodata = await client.query('ftp.uri.arpa', 'A', { dnssec: true })
    expect(nodata.authorities.map((r) => `${r.name} ${r.type}`)).toEqual(['uri.arpa SOA', 'uri.arpa RRSIG', 'ftp.uri.arpa NSEC', 'ftp.uri.arpa RRSIG'])
  })

  it('REFUSED outside its zones, without AA', async () => {
    expect(await client.query('example.com', 'A')).toMatchObject({ rcode: 'REFUSED', flags: { aa: false } })
  })
})
