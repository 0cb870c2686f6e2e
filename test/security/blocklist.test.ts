import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { IpBlocklistData, DomainBlocklistData } from '../../registry/security/schemas/blocklist-data.ts'
import { reversedLabel } from '../../plugins/security/blocklist.ts'
import { decodeAnswer } from '../../plugins/security/dnsbl-lists.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { DNSBL_ZONES } from '../support/dnsbl-zones.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'

// Blocklists served by the loopback DNS: the default zones with their test
// entries, plus lists that misbehave the ways real ones do — a refusal code
// (Spamhaus 127.255.255.254 for public resolvers), an answer outside 127/8 (a
// resolver rewriting NXDOMAIN), and a zone no server answers for.

const BAD_ZONES = [
  `$ORIGIN refused.test.
$TTL 60
@ IN SOA ns1 h ( 1 3600 900 604800 60 )
@ IN NS ns1
ns1 IN A 192.0.2.53
2.0.0.127 IN A 127.255.255.254
`,
  `$ORIGIN hijack.test.
$TTL 60
@ IN SOA ns1 h ( 1 3600 900 604800 60 )
@ IN NS ns1
ns1 IN A 192.0.2.53
2.0.0.127 IN A 198.51.100.7
`,
]

let dns: LoopbackDns
let t: TestApp
let custom: TestApp
let dead: TestApp
beforeAll(async () => {
  dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, ...DNSBL_ZONES, ...BAD_ZONES], timeoutMs: 300 })
  const base = { ...dns.env, INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_CACHE_MAX_ENTRIES: '0' }
  t = await startTestApp(base)
  custom = await startTestApp({ ...base, INFRALENS_DNSBL_ZONES: 'zen.spamhaus.org, refused.test, hijack.test, missing.test, bl.spamcop.net' })
  dead = await startTestApp({ ...base, INFRALENS_DNSBL_ZONES: 'refused.test,missing.test', INFRALENS_DOMAIN_BLOCKLIST_ZONES: 'missing.test' })
})
afterAll(async () => {
  await Promise.all([t.close(), custom.close(), dead.close()])
  await dns.close()
})
beforeEach(() => dns.resolver.setFault(null))

const row = (d: { lists: Array<{ zone: string }> }, zone: string) => d.lists.find((l) => l.zone === zone) as Record<string, any>

describe('/api/security/blocklist/{ip}', () => {
  it('the test entry 127.0.0.2 is listed on every default list, codes decoded, TXT reasons attached, queried in parallel', async () => {
    const before = dns.resolver.log.length
    const res = await t.json('/api/security/blocklist/127.0.0.2')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const d = res.body.data
    expect(IpBlocklistData.safeParse(d).success).toBe(true)
    expect(d).toMatchObject({ ip: '127.0.0.2', version: 4, reversed: '2.0.0.127', listed: true, listed_count: 6, clean_count: 0, error_count: 0 })
    expect(d.lists.map((l: { zone: string }) => l.zone)).toEqual(['zen.spamhaus.org', 'bl.spamcop.net', 'b.barracudacentral.org', 'psbl.surriel.com', 'bl.mailspike.net', 'dnsbl-1.uceprotect.net'])
    const zen = row(d, 'zen.spamhaus.org')
    expect(zen).toMatchObject({ name: 'Spamhaus ZEN', query: '2.0.0.127.zen.spamhaus.org', status: 'listed', return_codes: ['127.0.0.10', '127.0.0.2', '127.0.0.4'] })
    expect(zen.meanings.map((m: { meaning: string }) => m.meaning.split(':')[0])).toEqual(['PBL', 'SBL', 'XBL'])
    expect(zen.txt).toEqual(['Listed by SBL, see https://check.spamhaus.org/sbl/query/SBL2'])
    expect(row(d, 'bl.spamcop.net').meanings).toEqual([{ code: '127.0.0.2', meaning: 'SpamCop: reported as a spam source' }])
    // one A per list, one TXT per listing (a UDP retry under load may repeat a name)
    // (other plugins may resolve names in the background; count the blocklist names only)
    const asked = dns.resolver.log.slice(before).filter((q) => q.name.toLowerCase().startsWith('2.0.0.127.'))
    const names = (type: string) => new Set(asked.filter((q) => q.type === type).map((q) => q.name.toLowerCase()))
    expect(names('A').size).toBe(6)
    expect(names('TXT').size).toBe(6)
  })

  it('an address on no list is clean everywhere (NXDOMAIN)', async () => {
    const d = (await t.json('/api/security/blocklist/192.0.2.99')).body.data
    expect(d).toMatchObject({ listed: false, listed_count: 0, clean_count: 6, error_count: 0 })
    expect(row(d, 'zen.spamhaus.org')).toMatchObject({ status: 'not_listed', query: '99.2.0.192.zen.spamhaus.org', return_codes: [], error: null })
  })

  it('IPv6: nibble-reversed under lists that carry IPv6, "unsupported" on IPv4-only lists', async () => {
    const d = (await t.json('/api/security/blocklist/2001:db8::2')).body.data
    expect(d.reversed).toBe('2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2')
    expect(row(d, 'zen.spamhaus.org')).toMatchObject({ status: 'listed', return_codes: ['127.0.0.3'] })
    expect(row(d, 'bl.spamcop.net')).toMatchObject({ status: 'unsupported', error: 'This list carries IPv4 addresses only' })
    expect(d).toMatchObject({ listed: true, listed_count: 1, error_count: 0 })
  })

  it('failing lists are errors in their rows, never listed: refusal codes, non-127 answers, no answer, SERVFAIL', async () => {
    dns.resolver.setFault({ kind: 'servfail', name: 'bl.spamcop.net' })
    const res = await custom.json('/api/security/blocklist/127.0.0.2')
    expect(res.status).toBe(200)
    const d = res.body.data
    expect(row(d, 'zen.spamhaus.org').status).toBe('listed')
    expect(row(d, 'refused.test')).toMatchObject({ status: 'error', return_codes: ['127.255.255.254'] })
    expect(row(d, 'refused.test').error).toMatch(/public\/open resolver/)
    expect(row(d, 'hijack.test')).toMatchObject({ status: 'error' })
    expect(row(d, 'hijack.test').error).toMatch(/not a DNSBL answer/)
    expect(row(d, 'missing.test').status).toBe('error')
    expect(row(d, 'bl.spamcop.net')).toMatchObject({ status: 'error', error: 'The resolver answered SERVFAIL' })
    expect(d).toMatchObject({ listed: true, listed_count: 1, error_count: 4 })
  })

  it('every list failing is a 502', async () => {
    const res = await dead.json('/api/security/blocklist/127.0.0.2')
    expect(res.status).toBe(502)
    expect(res.body.error.details).toMatchObject({ upstream: 'dnsbl', reason: 'unavailable' })
    expect(res.body.error.details.lists).toHaveLength(2)
    expect((await dead.json('/api/security/domain-blocklist/dbltest.com')).status).toBe(502)
  })

  it('a resolver timeout on one list degrades only that row', async () => {
    dns.resolver.setFault({ kind: 'drop', name: 'psbl.surriel.com' })
    const d = (await t.json('/api/security/blocklist/127.0.0.2')).body.data
    expect(row(d, 'psbl.surriel.com').status).toBe('error')
    expect(row(d, 'psbl.surriel.com').error).toMatch(/DNS query failed/)
    expect(d.listed_count).toBe(5)
  })

  it('bad input is 400', async () => {
    expect((await t.json('/api/security/blocklist/127.1')).status).toBe(400)
    expect((await t.json('/api/security/blocklist/example.com')).status).toBe(400)
  })
})

describe('/api/security/domain-blocklist/{domain}', () => {
  it('dbltest.com: listed on the DBL, clean on URIBL and SURBL', async () => {
    const res = await t.json('/api/security/domain-blocklist/dbltest.com')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const d = res.body.data
    expect(DomainBlocklistData.safeParse(d).success).toBe(true)
    expect(d).toMatchObject({ domain: 'dbltest.com', registrable_domain: 'dbltest.com', names_checked: ['dbltest.com'], listed: true, listed_count: 1, clean_count: 2 })
    expect(row(d, 'dbl.spamhaus.org')).toMatchObject({
      query: 'dbltest.com.dbl.spamhaus.org',
      status: 'listed',
      meanings: [{ code: '127.0.1.2', meaning: 'DBL: low-reputation (spam) domain' }],
      txt: ['https://check.spamhaus.org/listed/?searchterm=dbltest.com'],
    })
  })

  it('bitmask lists are decoded bit by bit; a subdomain is asked with its registrable domain too', async () => {
    const uribl = (await t.json('/api/security/domain-blocklist/test.uribl.com')).body.data
    expect(uribl.names_checked).toEqual(['test.uribl.com', 'uribl.com'])
    const hit = uribl.lists.find((l: { zone: string; queried: string }) => l.zone === 'multi.uribl.com' && l.queried === 'test.uribl.com')
    expect(hit.meanings[0].meaning).toBe('URIBL black: domain seen in spam; URIBL grey: domain of bulk / unsolicited senders; URIBL red: domain seen in unsolicited mail, newly monitored')
    expect(uribl.lists).toHaveLength(6)
    const surbl = (await t.json('/api/security/domain-blocklist/test.surbl.org')).body.data
    const s = surbl.lists.find((l: { zone: string; queried: string }) => l.zone === 'multi.surbl.org' && l.queried === 'test.surbl.org')
    expect(s.meanings[0].meaning).toBe('SURBL PH: phishing site; SURBL MW: malware site; SURBL ABUSE: spam and abuse site; SURBL CR: cracked (compromised) site')
  })
})

describe('return codes', () => {
  it('decodes per list; refusals are not listings', () => {
    expect(decodeAnswer('zen.spamhaus.org', '127.0.0.4')).toEqual({ kind: 'listed', meaning: 'XBL: exploited or infected host (CBL data)' })
    expect(decodeAnswer('zen.spamhaus.org', '127.255.255.255').kind).toBe('refused')
    expect(decodeAnswer('dbl.spamhaus.org', '127.0.1.255').kind).toBe('refused')
    expect(decodeAnswer('multi.uribl.com', '127.0.0.1').kind).toBe('refused')
    expect(decodeAnswer('multi.surbl.org', '127.0.0.1').kind).toBe('refused')
    expect(decodeAnswer('any.example', '127.0.0.5')).toEqual({ kind: 'listed', meaning: 'listed (return code 127.0.0.5)' })
    expect(decodeAnswer('any.example', '127.255.255.1').kind).toBe('refused')
    expect(decodeAnswer('any.example', '10.0.0.1').kind).toBe('invalid')
  })

  it('reverses IPv4 by octet and IPv6 by nibble (RFC 5782)', () => {
    expect(reversedLabel('192.0.2.1')).toBe('1.2.0.192')
    expect(reversedLabel('::1')).toBe(`1.${'0.'.repeat(30)}0`)
  })
})
