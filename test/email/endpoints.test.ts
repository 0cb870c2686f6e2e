import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DkimData } from '../../registry/email/schemas/dkim-data.ts'
import { DmarcData } from '../../registry/email/schemas/dmarc-data.ts'
import { SpfData } from '../../registry/email/schemas/spf-data.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'

// The email endpoints through the whole pipeline, against the loopback resolver:
// routes and ?domain=, parameters, caching, formats, and DNS failure handling.

const ZONE = `
$ORIGIN mail.test.
$TTL 600
@    IN SOA ns1 hostmaster ( 1 3600 900 604800 120 )
@    IN NS  ns1
ns1  IN A   127.0.0.53
@    IN TXT "v=spf1 ip4:192.0.2.0/24 include:_spf.mail.test include:flaky.mail.test ~all"
_spf 60 IN TXT "v=spf1 ip6:2001:db8::/32 -all"
flaky IN TXT "v=spf1 ip4:198.51.100.0/24 -all"
_dmarc IN TXT "v=DMARC1; p=quarantine; rua=mailto:d@mail.test"
custom._domainkey IN TXT "v=DKIM1; k=rsa; p="
out  IN TXT "v=spf1 exists:%{l}.%{o}._e.mail.test -all"
postmaster.out.mail.test._e IN A 127.0.0.2
`

let dns: LoopbackDns
let t: TestApp
beforeAll(async () => {
  dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, ZONE] })
  t = await startTestApp({ ...dns.env, INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(async () => {
  await t.close()
  await dns.close()
})
beforeEach(() => dns.resolver.setFault(null))

const data = async (path: string) => {
  const res = await t.json(path)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

describe('routes', () => {
  it('every email endpoint and dns spf/dmarc answer on the path and with ?domain=', async () => {
    for (const path of ['email/health', 'email/mx', 'email/spf', 'email/dmarc', 'email/dkim', 'email/diagnose', 'dns/spf', 'dns/dmarc']) {
      const a = await t.json(`/api/${path}/mail.test`)
      const b = await t.json(`/api/${path}?domain=MAIL.test.`)
      expect(a.status, `${path}: ${JSON.stringify(a.body)}`).toBe(200)
      expect(b.status, path).toBe(200)
      expect(a.body.data.domain).toBe('mail.test')
      expect(a.body.meta.endpoint).toBe(path.replace('/', '.'))
    }
  })

  it('/api/dns/spf and /api/email/spf share the parser and shape', async () => {
    const a = await data('/api/dns/spf/mail.test')
    const b = await data('/api/email/spf/mail.test')
    expect(SpfData.safeParse(a).success).toBe(true)
    expect(a).toEqual(b)
    expect(DmarcData.safeParse(await data('/api/dns/dmarc/mail.test')).success).toBe(true)
  })
})

describe('SPF endpoint', () => {
  it('evaluates ?ip= with sender and helo', async () => {
    const d = await data('/api/email/spf/mail.test?ip=2001:db8::25&sender=alice@mail.test&helo=out.mail.test')
    expect(d.evaluation).toMatchObject({ ip: '2001:db8::25', identity: 'mail_from', sender: 'alice@mail.test', helo: 'out.mail.test', result: 'pass', matched: { domain: 'mail.test', term: 'include:_spf.mail.test' } })
    const softfail = await data('/api/email/spf/mail.test?ip=203.0.113.1')
    expect(softfail.evaluation).toMatchObject({ identity: 'mail_from', result: 'softfail', sender: 'postmaster@mail.test', helo: 'mail.test' })
    expect((await data('/api/email/spf/mail.test')).evaluation).toBeNull()
  })

  it('?helo= without ?sender= checks the HELO identity: postmaster@<helo> at the HELO name (RFC 7208 §2.3)', async () => {
    const d = await data('/api/email/spf/out.mail.test?ip=203.0.113.5&helo=out.mail.test')
    // out's record admits exactly %{l}=postmaster, %{o}=out.mail.test
    expect(d.evaluation).toMatchObject({ identity: 'helo', sender: 'postmaster@out.mail.test', helo: 'out.mail.test', result: 'pass', matched: { domain: 'out.mail.test', term: 'exists:%{l}.%{o}._e.mail.test' } })
  })

  it('an empty ?sender= is the null reverse-path, checked as postmaster@<helo> (RFC 7208 §2.4)', async () => {
    for (const sender of ['', '%3C%3E']) {
      const d = await data(`/api/email/spf/out.mail.test?ip=203.0.113.5&sender=${sender}&helo=OUT.mail.test`)
      expect(d.evaluation).toMatchObject({ identity: 'mail_from', sender: 'postmaster@OUT.mail.test', result: 'pass' })
    }
    const named = await data('/api/email/spf/out.mail.test?ip=203.0.113.5&sender=alice@out.mail.test&helo=out.mail.test')
    expect(named.evaluation).toMatchObject({ identity: 'mail_from', sender: 'alice@out.mail.test', result: 'fail' })
  })

  it.each([
    ['sender=alice@mail.test', /^sender is only used to evaluate check_host\(\), which needs ip/],
    ['helo=out.mail.test', /^helo is only used/],
    ['sender=alice@mail.test&helo=out.mail.test', /^sender and helo are only used/],
    ['sender=', /^sender is only used/],
  ])('?%s without ?ip= is a 400 that asks for ip', async (query, message) => {
    const res = await t.json(`/api/email/spf/mail.test?${query}`)
    expect(res.status).toBe(400)
    expect(res.body.error.details.param).toBe('ip')
    expect(res.body.error.message).toMatch(message)
    expect(res.body.error.message).toMatch(/\?ip=192\.0\.2\.1/)
  })

  it.each([
    ['helo=out.mail.test', 'helo', /HELO identity "out\.mail\.test" is checked against the SPF record of out\.mail\.test, not mail\.test: ask \/api\/email\/spf\/out\.mail\.test\?ip=192\.0\.2\.9&helo=out\.mail\.test/],
    ['sender=&helo=out.mail.test', 'helo', /empty sender \(null reverse-path\) is checked as postmaster@out\.mail\.test/],
    ['sender=alice@other.test', 'sender', /sender "alice@other\.test" is checked against the SPF record of other\.test, not mail\.test/],
    ['helo=%5B192.0.2.9%5D', 'helo', /not a domain name/],
    ['sender=alice@', 'sender', /has no domain after the @/],
  ])('an identity at another domain than the one asked about is a 400 (?%s)', async (query, param, message) => {
    const res = await t.json(`/api/email/spf/mail.test?ip=192.0.2.9&${query}`)
    expect(res.status).toBe(400)
    expect(res.body.error.details.param).toBe(param)
    expect(res.body.error.message).toMatch(message)
  })

  it('rejects a bad ip', async () => {
    const res = await t.json('/api/email/spf/mail.test?ip=999.1.1.1')
    expect(res.status).toBe(400)
    expect(res.body.error.details.param).toBe('ip')
  })

  it('caches for the smallest TTL of the answers it used', async () => {
    const res = await t.json('/api/email/spf/mail.test?ip=192.0.2.9')
    expect(res.headers.get('cache-control')).toBe('private, max-age=60')
  })

  it('the tree is the CSV rows', async () => {
    const csv = await (await t.request('/api/email/spf/mail.test?format=csv&fields=tree.id,tree.domain,tree.via,tree.subtree_lookups')).text()
    expect(csv.split('\r\n').slice(0, 4)).toEqual(['tree.id,tree.domain,tree.via,tree.subtree_lookups', '0,mail.test,root,2', '1,_spf.mail.test,include,0', '2,flaky.mail.test,include,0'])
  })

  it('an include whose lookup fails is a temperror in the data, not an error response', async () => {
    dns.resolver.setFault({ kind: 'servfail', name: 'flaky.mail.test' })
    const d = await data('/api/email/spf/mail.test?ip=203.0.113.7&sender=x@mail.test')
    expect(d.verdict).toBe('temperror')
    expect(d.tree.find((n: { domain: string }) => n.domain === 'flaky.mail.test').status).toBe('dns_error')
    expect(d.evaluation.result).toBe('temperror')
    expect(d.findings.map((f: { id: string }) => f.id)).toContain('spf.include_dns_error')
  })

  it('our resolver not answering at all is a 502, like the DNS endpoints', async () => {
    dns.resolver.setFault({ kind: 'drop' })
    const res = await t.json('/api/email/spf/nocache1.mail.test')
    expect(res.status).toBe(502)
    expect(res.body.error.details).toMatchObject({ upstream: 'dns', reason: 'timeout' })
  })
})

describe('DKIM endpoint', () => {
  it('takes ?selectors= and reports them first', async () => {
    const d = await data('/api/email/dkim/mail.test?selectors=custom,Other')
    expect(DkimData.safeParse(d).success).toBe(true)
    expect(d.selectors_checked.slice(0, 2)).toEqual(['custom', 'other'])
    expect(d.keys.map((k: { selector: string; status: string; revoked: boolean }) => [k.selector, k.status, k.revoked])).toEqual([
      ['custom', 'found', true],
      ['other', 'not_found', false],
    ])
  })
  it.each(['bad selector', 'a..b', Array.from({ length: 21 }, (_, i) => `s${i}`).join(',')])('rejects selectors=%s', async (value) => {
    const res = await t.json(`/api/email/dkim/mail.test?selectors=${encodeURIComponent(value)}`)
    expect(res.status).toBe(400)
    expect(res.body.error.details.param).toBe('selectors')
  })
})

describe('health of a domain that neither sends nor receives mail', () => {
  it('example.com (null MX, "v=spf1 -all", p=reject) scores well; DKIM and TLS do not apply', async () => {
    const d = await data('/api/email/health/example.com')
    expect(d).toMatchObject({ sends_mail: false, receives_mail: false })
    expect(d.parts.dkim).toMatchObject({ applicable: false, score: null, status: 'not_applicable', findings: [] })
    expect(d.parts.tls).toMatchObject({ applicable: false })
    expect(d.parts.mx).toMatchObject({ score: 100, status: 'good' })
    expect(d.score).toBeGreaterThanOrEqual(90)
  })
})
