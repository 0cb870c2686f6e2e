import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DECODED_TYPES, decodedType } from '../../runtime/net/dns/dns-decoded-types.ts'
import { TYPE_CODES } from '../../runtime/net/dns/dns-types.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { startLoopbackDns } from '../support/loopback-dns.ts'

// /api/dns/query's type parameter and the record endpoints on the loopback resolver.
// Their answers are compared with dig in test/e2e/dns-types-interop.test.ts.

let dns: LoopbackDns
let t: TestApp
beforeAll(async () => {
  dns = await startLoopbackDns()
  t = await startTestApp({ ...dns.env, INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(async () => {
  await t.close()
  await dns.close()
})

describe('type: what the client decodes, nothing else', () => {
  it('a type the client cannot decode is a 400 that lists the ones it can', async () => {
    for (const type of ['ANY', 'AXFR', 'OPT', 'TYPE65', 'NULL', 'LOC', 'A6', 'bogus', '']) {
      const res = await t.json(`/api/dns/query/example.com?type=${encodeURIComponent(type)}`)
      expect(res.status, type).toBe(400)
      expect(res.body.error.details.param).toBe('type')
      expect(res.body.error.message).toContain(`"${type}" is not a record type this service can ask for and decode`)
      expect(res.body.error.message).toContain(DECODED_TYPES.join(', '))
    }
  })

  it('any case is the same type; the answer names it upper-case', async () => {
    const res = await t.json('/api/dns/query/_sip._tcp.example.com?type=srv')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ type: 'SRV', status: 'answer', dnssec: null })
    expect(res.body.data.records).toEqual([{ name: '_sip._tcp.example.com', type: 'SRV', ttl: 3600, priority: 10, weight: 60, port: 5060, target: 'sip.example.com' }])
  })

  it('property: decodedType accepts exactly the listed types in any case, and no other IANA type', () => {
    const listed = new Set<string>(DECODED_TYPES)
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(TYPE_CODES)), fc.array(fc.boolean(), { maxLength: 12 }), (name, upper) => {
        const mixed = [...name].map((c, i) => (upper[i % Math.max(1, upper.length)] ? c.toUpperCase() : c.toLowerCase())).join('')
        expect(decodedType(mixed)).toBe(listed.has(name) ? name : undefined)
      }),
    )
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(decodedType(text) === undefined || listed.has(text.trim().toUpperCase())).toBe(true)
      }),
    )
  })
})

describe('the per-type endpoints on the loopback resolver', () => {
  it('each answers its own type (the descriptor\'s dnsType)', async () => {
    const cases: Array<[string, string, string, Record<string, unknown>]> = [
      ['srv', '_sip._tcp.example.com', 'SRV', { port: 5060, target: 'sip.example.com' }],
      ['caa', 'example.com', 'CAA', { tag: 'issue', value: 'digicert.com', critical: false }],
      ['tlsa', '_443._tcp.example.com', 'TLSA', { usage: 3, selector: 1, matching_type: 1 }],
      ['https', 'example.com', 'HTTPS', { priority: 1, mode: 'service', target: '.', params: { alpn: ['h2', 'h3'] } }],
      ['ds', 'example.com', 'DS', { key_tag: 61212, algorithm: 13, digest_type: 2 }],
      ['dnskey', 'example.com', 'DNSKEY', { key_tag: 61212, secure_entry_point: true }],
      ['soa', 'example.com', 'SOA', { mname: 'ns.icann.org', serial: 2026112201 }],
      ['ptr', '192.0.2.1', 'PTR', { name: '1.2.0.192.in-addr.arpa', target: 'host.infralens.test' }],
    ]
    for (const [endpoint, name, type, fields] of cases) {
      const res = await t.json(`/api/dns/${endpoint}/${name}`)
      expect(res.status, endpoint).toBe(200)
      expect(res.body.data.type).toBe(type)
      expect(res.body.data.records[0], endpoint).toMatchObject({ type, ...fields })
    }
  })

  it('ptr: an address or a reverse name, nothing else', async () => {
    expect((await t.json('/api/dns/ptr/1.2.0.192.in-addr.arpa')).body.data.records[0].target).toBe('host.infralens.test')
    const bad = await t.json('/api/dns/ptr/not..a.name')
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toContain('give an IP address (192.0.2.1, 2001:db8::1) or its reverse name')
  })
})
