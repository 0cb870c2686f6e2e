// Every record type, served by the loopback server from master-file text and decoded
// by the client: the zone parser's encoders and the client's decoders are separate
// code, so agreement here checks both.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDnsClient, type DnsClient } from '../../runtime/net/dns/dns-client.ts'
import type { DnsRecord, DnsRecordOfType } from '../../runtime/net/dns/dns-records.ts'
import { txtRawStrings, wireOf } from '../../runtime/net/dns/dns-wire-store.ts'
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts'
import { BIG_TXT_STRINGS, DS_DIGEST, fixture, KSK, SSHFP_FP, TLSA_DATA, TYPES_ZONE, ZONEMD_DIGEST, ZSK } from './test-zones.ts'

let server: TestDnsServer
let client: DnsClient

beforeAll(async () => {
  server = await startDnsServer({ host: '127.0.0.1', zones: [TYPES_ZONE, fixture('uri.arpa.rfc8976.zone'), fixture('example.rfc4035.zone')] })
  client = createDnsClient({ servers: [{ host: server.host, port: server.port, name: 'loopback' }], timeoutMs: 1000, retries: 0 })
})
afterAll(async () => {
  await server.close()
})

async function records<T extends DnsRecord['type']>(name: string, type: T, dnssec = false): Promise<Array<DnsRecordOfType<T>>> {
  const answer = await client.query(name, type, { dnssec })
  expect(answer.rcode).toBe('NOERROR')
  return answer.answers.filter((r): r is DnsRecordOfType<T> => r.type === type)
}

describe('decoded record types', () => {
  it('A and AAAA, with name, type, class and TTL', async () => {
    expect(await records('types.test', 'A')).toEqual([{ name: 'types.test', type: 'A', class: 'IN', ttl: 300, data: { address: '192.0.2.1' } }])
    expect(await records('types.test', 'AAAA')).toEqual([{ name: 'types.test', type: 'AAAA', class: 'IN', ttl: 600, data: { address: '2001:db8::1' } }])
  })

  it('NS, CNAME, DNAME and PTR as a target name', async () => {
    expect((await records('types.test', 'NS')).map((r) => r.data)).toEqual([{ target: 'ns1.types.test' }, { target: 'ns2.elsewhere.test' }])
    expect((await records('www.types.test', 'CNAME'))[0]?.data).toEqual({ target: 'types.test' })
    expect((await records('dn.types.test', 'DNAME'))[0]?.data).toEqual({ target: 'types.example' })
    expect((await records('ptr.types.test', 'PTR'))[0]?.data).toEqual({ target: 'host.types.test' })
  })

  it('MX with preference and exchange, plus in-zone addresses in additional', async () => {
    const answer = await client.query('types.test', 'MX')
    expect(answer.answers.map((r) => r.data)).toEqual([
      { preference: 10, exchange: 'mail.types.test' },
      { preference: 20, exchange: 'mail.elsewhere.test' },
    ])
    expect(answer.additionals).toEqual([{ name: 'mail.types.test', type: 'A', class: 'IN', ttl: 300, data: { address: '192.0.2.25' } }])
  })

  it('TXT strings unquoted, kept apart and joined without a separator', async () => {
    const [spf] = await records('types.test', 'TXT')
    expect(spf?.data).toEqual({ text: 'v=spf1 ip4:192.0.2.0/24 -all', strings: ['v=spf1 ip4:192.0.2.0/24 ', '-all'] })
    const [escaped] = await records('txt.types.test', 'TXT')
    expect(escaped?.data.strings).toEqual(['with "quotes" and \\ backslash', 'plain', 'semi;colon'])
    const [long] = await records('long.types.test', 'TXT')
    expect(long?.data.text).toBe('part one, part two; part three')
    expect((await records('types.test', 'SPF'))[0]?.data.text).toBe('v=spf1 -all')
  })

  it('TXT is binary-safe: replacement characters in text, exact bytes on the side', async () => {
    const [bin] = await records('bin.types.test', 'TXT')
    if (!bin) throw new Error('no TXT')
    expect(bin.data.strings).toEqual(['\uFFFD\u0000\uFFFD', '\uFFFDcaf\u00e9'])
    // Joined from the bytes: the é split across the two strings comes back whole.
    expect(bin.data.text).toBe('\uFFFD\u0000\u00e9caf\u00e9')
    expect(txtRawStrings(bin)?.map((b) => b.toString('hex'))).toEqual(['ff00c3', 'a9636166c3a9'])
    expect(JSON.stringify(bin)).not.toContain('Buffer')
  })

  it('SOA with every field', async () => {
    expect((await records('types.test', 'SOA'))[0]?.data).toEqual({
      mname: 'ns1.types.test',
      rname: 'hostmaster.types.test',
      serial: 2024010101,
      refresh: 3600,
      retry: 900,
      expire: 604800,
      minimum: 60,
    })
  })

  it('CAA with flags, critical bit, tag and value', async () => {
    expect((await records('types.test', 'CAA')).map((r) => r.data)).toEqual([
      { flags: 0, critical: false, tag: 'issue', value: 'letsencrypt.org' },
      { flags: 128, critical: true, tag: 'iodef', value: 'mailto:security@types.test' },
    ])
  })

  it('SRV', async () => {
    expect((await records('_sip._tcp.types.test', 'SRV'))[0]?.data).toEqual({ priority: 10, weight: 60, port: 5060, target: 'sip.types.test' })
  })

  it('DNSKEY and CDNSKEY with the RFC 4034 key tag', async () => {
    const keys = await records('types.test', 'DNSKEY')
    expect(keys.map((k) => k.data)).toEqual([
      { flags: 257, protocol: 3, algorithm: 8, key: KSK, keyTag: 31967, zoneKey: true, secureEntryPoint: true, revoked: false },
      { flags: 256, protocol: 3, algorithm: 8, key: ZSK, keyTag: 38353, zoneKey: true, secureEntryPoint: false, revoked: false },
    ])
    expect((await records('types.test', 'CDNSKEY'))[0]?.data.keyTag).toBe(31967)
  })

  it('DS and CDS with the digest in hex', async () => {
    const ds = await records('sub.types.test', 'DS')
    expect(ds.map((r) => r.data)).toEqual([{ keyTag: 31967, algorithm: 8, digestType: 2, digest: DS_DIGEST }])
    expect((await records('types.test', 'CDS'))[0]?.data.digest).toBe(DS_DIGEST)
  })

  it('RRSIG with every field and ISO dates, only when DO is set', async () => {
    const answer = await client.query('types.test', 'A', { dnssec: true })
    const sig = answer.answers.find((r): r is DnsRecordOfType<'RRSIG'> => r.type === 'RRSIG')
    expect(sig?.data).toEqual({
      typeCovered: 'A',
      algorithm: 8,
      labels: 2,
      originalTtl: 300,
      expiration: '2030-01-01T00:00:00.000Z',
      inception: '2024-01-01T00:00:00.000Z',
      keyTag: 31967,
      signerName: 'types.test',
      signature: 'dGVzdHNpZ25hdHVyZQ==',
    })
    const plain = await client.query('types.test', 'A')
    expect(plain.answers.some((r) => r.type === 'RRSIG')).toBe(false)
    // Numeric times in the zone file come out the same way.
    const [txtSig] = (await client.query('types.test', 'TXT', { dnssec: true })).answers.filter((r) => r.type === 'RRSIG')
    expect(txtSig?.data).toMatchObject({ expiration: '2050-01-01T00:00:00.000Z', inception: '2024-01-01T00:00:00.000Z', keyTag: 38353 })
  })

  it('RRSIGs from a signed fixture zone (uri.arpa)', async () => {
    const answer = await client.query('uri.arpa', 'MX', { dnssec: true })
    expect(answer.answers.map((r) => r.type)).toEqual(['MX', 'RRSIG'])
    expect(answer.answers[1]?.data).toMatchObject({ typeCovered: 'MX', labels: 2, originalTtl: 600, keyTag: 37444, signerName: 'uri.arpa', expiration: '2021-02-17T23:24:40.000Z' })
  })

  it('NSEC with its type list (HTTPS and TYPEn by name)', async () => {
    expect((await records('types.test', 'NSEC'))[0]?.data).toEqual({
      nextDomain: 'alias.types.test',
      types: ['A', 'NS', 'SOA', 'MX', 'TXT', 'AAAA', 'RRSIG', 'NSEC', 'DNSKEY', 'HTTPS', 'CAA', 'TYPE65534'],
    })
  })

  it('NSEC3 and NSEC3PARAM', async () => {
    expect((await records('h9p7u7tr2u91d0v0ljs9l1gidnp90u3h.types.test', 'NSEC3'))[0]?.data).toEqual({
      hashAlgorithm: 1,
      flags: 1,
      optOut: true,
      iterations: 12,
      salt: 'aabbccdd',
      nextHashedOwner: '2t7b4g4vsa5smi47k61mv5bv1a22bojr',
      types: ['A', 'RRSIG'],
    })
    expect((await records('nosalt.types.test', 'NSEC3'))[0]?.data).toMatchObject({ salt: '', iterations: 0, types: [] })
    expect((await records('types.test', 'NSEC3PARAM'))[0]?.data).toEqual({ hashAlgorithm: 1, flags: 0, iterations: 12, salt: 'aabbccdd' })
  })

  it('TLSA and SMIMEA', async () => {
    expect((await records('_443._tcp.www.types.test', 'TLSA'))[0]?.data).toEqual({ usage: 3, selector: 1, matchingType: 1, associationData: TLSA_DATA })
    expect((await records('_smimecert.types.test', 'SMIMEA'))[0]?.data).toEqual({ usage: 3, selector: 0, matchingType: 1, associationData: TLSA_DATA })
  })

  it('HTTPS and SVCB with their parameters', async () => {
    expect((await records('types.test', 'HTTPS'))[0]?.data).toEqual({
      priority: 1,
      mode: 'service',
      target: '.',
      params: { mandatory: ['alpn', 'port'], alpn: ['h2', 'h3'], port: 8443, ipv4hint: ['192.0.2.1', '192.0.2.2'], ech: 'AEX+DQ==', ipv6hint: ['2001:db8::1'] },
    })
    expect((await records('svc.types.test', 'SVCB'))[0]?.data).toEqual({ priority: 0, mode: 'alias', target: 'pool.svc.types.test', params: {} })
    expect((await records('svc2.types.test', 'SVCB'))[0]?.data).toEqual({
      priority: 16,
      mode: 'service',
      target: 'pool.types.test',
      params: { alpn: ['h2'], 'no-default-alpn': true, dohpath: '/dns-query{?dns}', ohttp: true, key65333: Buffer.from('ex1').toString('hex') },
    })
  })

  it('SSHFP, HINFO, NAPTR, ZONEMD and URI', async () => {
    expect((await records('types.test', 'SSHFP'))[0]?.data).toEqual({ algorithm: 4, fingerprintType: 2, fingerprint: SSHFP_FP })
    expect((await records('types.test', 'HINFO'))[0]?.data).toEqual({ cpu: 'PDP-11', os: 'UNIX' })
    expect((await records('naptr.types.test', 'NAPTR'))[0]?.data).toEqual({
      order: 100,
      preference: 10,
      flags: 'S',
      services: 'SIP+D2U',
      regexp: '',
      replacement: '_sip._udp.types.test',
    })
    expect((await records('types.test', 'ZONEMD'))[0]?.data).toEqual({ serial: 2024010101, scheme: 1, hashAlgorithm: 1, digest: ZONEMD_DIGEST })
    expect((await records('uri.types.test', 'URI'))[0]?.data).toEqual({ priority: 10, weight: 1, target: 'https://types.test/' })
  })

  it('NAPTR with regexp escapes from the uri.arpa fixture', async () => {
    expect((await records('ftp.uri.arpa', 'NAPTR'))[0]?.data).toEqual({
      order: 0,
      preference: 0,
      flags: '',
      services: '',
      regexp: '!^ftp://([^:/?#]*).*$!\\1!i',
      replacement: '.',
    })
  })

  it('unknown types as RFC 3597 hex, asked for by number or TYPEn', async () => {
    const byNumber = await client.query('types.test', 65534)
    expect(byNumber.answers).toEqual([{ name: 'types.test', type: 'TYPE65534', class: 'IN', ttl: 300, data: { rdata: 'deadbeef' } }])
    expect(byNumber.question).toEqual({ name: 'types.test', type: 'TYPE65534', class: 'IN' })
    expect((await client.query('types.test', 'TYPE65534')).answers).toEqual(byNumber.answers)
  })

  it('keeps the wire RDATA beside each record, out of JSON and copies', async () => {
    const [key] = await records('types.test', 'DNSKEY')
    if (!key) throw new Error('no DNSKEY')
    const wire = wireOf(key)
    expect(wire?.typeCode).toBe(48)
    expect(wire?.classCode).toBe(1)
    expect(wire?.owner.toString('hex')).toBe('057479706573047465737400')
    expect(wire?.rdata.subarray(0, 4).toString('hex')).toBe('01010308')
    expect(wire?.rdata.subarray(4).toString('base64')).toBe(KSK)
    expect(Object.keys(key)).toEqual(['name', 'type', 'class', 'ttl', 'data'])
    expect(JSON.parse(JSON.stringify(key))).toEqual(key)
    expect(wireOf(structuredClone(key))).toBeUndefined()
  })

  it('answers too big for 1232 bytes come over TCP', async () => {
    const answer = await client.query('big.types.test', 'TXT')
    expect(answer.transport).toBe('tcp')
    expect(answer.answers[0]?.type === 'TXT' && answer.answers[0].data.strings).toHaveLength(BIG_TXT_STRINGS)
    expect(server.log.slice(-2).map((e) => e.transport)).toEqual(['udp', 'tcp'])
  })
})
