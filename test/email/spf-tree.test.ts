import { describe, expect, it } from 'vitest'
import { checkHost } from '../../plugins/email/spf/spf-evaluate.ts'
import { inspectSpf } from '../../plugins/email/spf/spf-inspect.ts'
import { zoneDns } from './rfc7208-zone.ts'
import type { ZoneData } from './rfc7208-zone.ts'

/** %{t} expands to the clock's seconds; a fixed instant keeps answers the same on any day. */
const NOW = 1_800_000_000

// The inspection tree and its findings, on small in-memory zones.

const ids = (f: Array<{ id: string }>) => f.map((x) => x.id)
const inspect = (zone: ZoneData, domain = 'example.com', options = {}) => inspectSpf(zoneDns(zone), domain, { now: NOW, ...options })

describe('the include tree', () => {
  it('numbers lookups in evaluation order and sums them per subtree', async () => {
    const d = await inspect({
      'example.com': [{ TXT: 'v=spf1 a include:one.example.net mx include:two.example.net -all' }, { A: '192.0.2.1' }, { MX: [10, 'mx.example.com'] }],
      'mx.example.com': [{ A: '192.0.2.25' }],
      'one.example.net': [{ TXT: 'v=spf1 ip4:198.51.100.0/24 include:deep.example.net ~all' }],
      'deep.example.net': [{ TXT: 'v=spf1 a:host.example.net -all' }],
      'host.example.net': [{ AAAA: '2001:db8::1' }],
      'two.example.net': [{ TXT: 'v=spf1 ip6:2001:db8::/32 -all' }],
    })
    expect(d.verdict).toBe('valid')
    expect(d.tree.map((n) => [n.id, n.parent_id, n.depth, n.domain, n.via, n.lookups, n.subtree_lookups])).toEqual([
      [0, null, 0, 'example.com', 'root', 4, 6],
      [1, 0, 1, 'one.example.net', 'include', 1, 2],
      [2, 1, 2, 'deep.example.net', 'include', 1, 1],
      [3, 0, 1, 'two.example.net', 'include', 0, 0],
    ])
    const numbers = d.tree.flatMap((n) => n.terms.filter((t) => t.counts_lookup).map((t) => `${t.lookup_number}:${n.domain}:${t.raw}`))
    expect(numbers.sort((a, b) => parseInt(a) - parseInt(b))).toEqual([
      '1:example.com:a',
      '2:example.com:include:one.example.net',
      '3:one.example.net:include:deep.example.net',
      '4:deep.example.net:a:host.example.net',
      '5:example.com:mx',
      '6:example.com:include:two.example.net',
    ])
    // addresses are resolved without a client IP
    expect(d.tree[0]!.terms.find((t) => t.name === 'mx')).toMatchObject({ mx_hosts: ['mx.example.com'], addresses: ['192.0.2.25'], void: false })
    expect(d.tree[2]!.terms[0]).toMatchObject({ addresses: ['2001:db8::1'], void: false })
    expect(d.lookups).toMatchObject({ count: 6, over_limit: false, void_count: 0 })
    expect(d.findings).toEqual([])
  })

  it('returns the whole tree over the limit, names the 11th lookup, and flags it', async () => {
    const zone: ZoneData = { 'example.com': [{ TXT: `v=spf1 ${Array.from({ length: 6 }, (_, i) => `include:i${i}.example.net`).join(' ')} -all` }] }
    for (let i = 0; i < 6; i++) zone[`i${i}.example.net`] = [{ TXT: `v=spf1 a:h${i}.example.net -all` }, { A: '192.0.2.9' }]
    for (let i = 0; i < 6; i++) zone[`h${i}.example.net`] = [{ A: '192.0.2.9' }]
    const d = await inspect(zone)
    expect(d.tree).toHaveLength(7)
    expect(d.lookups).toMatchObject({ count: 12, over_limit: true, first_over_limit: 'example.com: include:i5.example.net' })
    expect(d.verdict).toBe('permerror')
    expect(ids(d.findings)).toContain('spf.too_many_lookups')
    expect(d.findings[0]).toMatchObject({ id: 'spf.too_many_lookups', severity: 'critical' })
  })

  it('detects loops, includes without records, multiple records and syntax errors in includes', async () => {
    const d = await inspect({
      'example.com': [{ TXT: 'v=spf1 include:a.example.net include:gone.example.net include:two.example.net include:bad.example.net -all' }],
      'a.example.net': [{ TXT: 'v=spf1 include:b.example.net' }],
      'b.example.net': [{ TXT: 'v=spf1 include:a.example.net' }],
      'two.example.net': [{ TXT: 'v=spf1 -all' }, { TXT: 'v=spf1 +all' }],
      'bad.example.net': [{ TXT: 'v=spf1 ip4:192.0.2.300 -all' }],
    })
    const status = Object.fromEntries(d.tree.filter((n) => n.status !== 'loop').map((n) => [n.domain, n.status]))
    expect(status).toMatchObject({ 'a.example.net': 'ok', 'b.example.net': 'ok', 'gone.example.net': 'none', 'two.example.net': 'multiple', 'bad.example.net': 'syntax_error' })
    expect(d.tree.filter((n) => n.status === 'loop').map((n) => `${n.domain} via ${n.via_term}`)).toEqual(['a.example.net via include:a.example.net'])
    expect(ids(d.findings)).toEqual(expect.arrayContaining(['spf.loop', 'spf.include_no_record', 'spf.include_multiple_records', 'spf.syntax_error']))
    expect(d.verdict).toBe('permerror')
  })

  it('counts void lookups through the tree', async () => {
    const d = await inspect({
      'example.com': [{ TXT: 'v=spf1 a:nx1.example.com mx:nx2.example.com include:i.example.net -all' }],
      'i.example.net': [{ TXT: 'v=spf1 exists:nx3.example.net -all' }],
    })
    expect(d.lookups).toMatchObject({ void_count: 3 })
    expect(d.verdict).toBe('permerror')
    expect(ids(d.findings)).toEqual(expect.arrayContaining(['spf.too_many_void_lookups', 'spf.void_lookup']))
  })

  it.each([
    ['v=spf1 +all', 'spf.pass_all', 'critical'],
    ['v=spf1 ip4:192.0.2.1 all', 'spf.pass_all', 'critical'],
    ['v=spf1 ?all', 'spf.neutral_all', 'warning'],
    ['v=spf1 ip4:192.0.2.1', 'spf.no_all', 'warning'],
    ['v=spf1 ptr -all', 'spf.ptr', 'warning'],
    ['v=spf1 -all ip4:192.0.2.1', 'spf.terms_after_all', 'warning'],
    ['v=spf1 -all redirect=other.example.net', 'spf.redirect_ignored', 'warning'],
    ['v=spf1 ip4:0.0.0.0/0 -all', 'spf.whole_internet', 'critical'],
    ['v=spf1 ip4:10.0.0.0/8 -all', 'spf.broad_network', 'warning'],
    ['v=spf1 ip4:192.0.2.77/24 -all', 'spf.network_host_bits', 'info'],
    ['v=spf1 include:x.example.net include:x.example.net -all', 'spf.duplicate_include', 'warning'],
    ['v=spf1 foo=bar -all', 'spf.unknown_modifier', 'info'],
    ['v=spf1 exists:%{i}.rbl.example.net -all', null, null],
  ])('%s -> %s', async (record, id, severity) => {
    const d = await inspect({ 'example.com': [{ TXT: record }], 'x.example.net': [{ TXT: 'v=spf1 -all' }], 'other.example.net': [{ TXT: 'v=spf1 -all' }] })
    if (id === null) expect(d.findings.filter((f) => f.severity !== 'info')).toEqual([])
    else expect(d.findings.find((f) => f.id === id)).toMatchObject({ severity })
  })

  it('an include that ends in +all authorizes everyone', async () => {
    const d = await inspect({ 'example.com': [{ TXT: 'v=spf1 include:lax.example.net -all' }], 'lax.example.net': [{ TXT: 'v=spf1 +all' }] })
    expect(d.findings[0]).toMatchObject({ id: 'spf.include_pass_all', severity: 'critical' })
  })

  it('follows redirect for the effective "all", and flags a redirect without record', async () => {
    const ok = await inspect({ 'example.com': [{ TXT: 'v=spf1 redirect=_spf.example.com' }], '_spf.example.com': [{ TXT: 'v=spf1 ip4:192.0.2.0/24 ~all' }] })
    expect(ok.all).toBe('~all')
    expect(ok.tree.map((n) => n.via)).toEqual(['root', 'redirect'])
    expect(ok.lookups.count).toBe(1)
    const bad = await inspect({ 'example.com': [{ TXT: 'v=spf1 redirect=_spf.example.com' }] })
    expect(bad.findings[0]).toMatchObject({ id: 'spf.redirect_no_record', severity: 'critical' })
  })

  it('points at the string boundary when strings were joined into a broken term', async () => {
    const d = await inspect({ 'example.com': [{ TXT: ['v=spf1 ip4:192.0.2.1', 'include:_spf.example.net -all'] }], '_spf.example.net': [{ TXT: 'v=spf1 -all' }] })
    const f = d.findings.find((x) => x.id === 'spf.syntax_error')!
    expect(f.message).toMatch(/spans the boundary between string 1 and 2/)
  })

  it('flags a TXT answer over 512 bytes and a record spread over strings is fine', async () => {
    const many = Array.from({ length: 30 }, (_, i) => `ip4:198.51.100.${i}`).join(' ')
    const d = await inspect({ 'example.com': [{ TXT: [`v=spf1 ${many.slice(0, 200)}`, `${many.slice(200)} -all`] }, { TXT: `google-site-verification=${'x'.repeat(60)}` }] })
    expect(d.tree[0]!.strings).toHaveLength(2)
    expect(d.findings.find((f) => f.id === 'spf.response_over_512')).toBeDefined()
    expect(d.findings.find((f) => f.id === 'spf.syntax_error')).toBeUndefined()
  })

  it('no record, multiple records, DNS failure at the root', async () => {
    expect((await inspect({ 'example.com': [{ TXT: 'hello' }] })).findings[0]).toMatchObject({ id: 'spf.missing' })
    const multi = await inspect({ 'example.com': [{ TXT: 'v=spf1 -all' }, { TXT: 'v=spf1 ~all' }] })
    expect(multi).toMatchObject({ status: 'multiple', verdict: 'permerror' })
    expect(multi.findings[0]).toMatchObject({ id: 'spf.multiple_records', severity: 'critical' })
    const down = await inspect({ 'example.com': ['TIMEOUT'] })
    expect(down).toMatchObject({ status: 'dns_error', verdict: 'temperror' })
  })

  it('macro targets are shown unexpanded without a client, and expanded with one', async () => {
    const zone: ZoneData = {
      'example.com': [{ TXT: 'v=spf1 include:%{ir}.%{v}._spf.example.com -all' }],
      '1.2.0.192.in-addr._spf.example.com': [{ TXT: 'v=spf1 ip4:192.0.2.1 -all' }],
    }
    const bare = await inspect(zone)
    expect(bare.tree[1]).toMatchObject({ status: 'unexpanded_macro' })
    const withIp = await inspect(zone, 'example.com', { ip: '192.0.2.1' })
    expect(withIp.tree[1]).toMatchObject({ status: 'ok', domain: '1.2.0.192.in-addr._spf.example.com' })
    expect(withIp.evaluation).toMatchObject({ result: 'pass', matched: { domain: 'example.com', term: 'include:%{ir}.%{v}._spf.example.com' }, dns_lookups: 1 })
  })
})

describe('check_host()', () => {
  const zone: ZoneData = {
    'example.com': [{ TXT: 'v=spf1 ip4:192.0.2.0/24 include:partner.example.net -all exp=why.example.com' }],
    'partner.example.net': [{ TXT: 'v=spf1 ip6:2001:db8:5::/48 ~all' }],
    'why.example.com': [{ TXT: '%{i} is not one of %{d}\'s designated mail servers.' }],
  }
  it.each([
    ['192.0.2.77', 'pass', 'ip4:192.0.2.0/24'],
    ['2001:db8:5::9', 'pass', 'include:partner.example.net'],
    ['::ffff:192.0.2.5', 'pass', 'ip4:192.0.2.0/24'],
    ['198.51.100.1', 'fail', '-all'],
  ])('%s -> %s via %s', async (ip, result, term) => {
    const r = await checkHost(zoneDns(zone), 'example.com', { ip, sender: 'user@example.com', helo: 'mail.example.com', now: NOW })
    expect(r).toMatchObject({ result, matched: { domain: 'example.com', term } })
  })

  it('a fail carries the expanded explanation and a trace', async () => {
    const r = await checkHost(zoneDns(zone), 'example.com', { ip: '198.51.100.1', sender: 'user@example.com', helo: 'h', now: NOW })
    expect(r.explanation).toBe("198.51.100.1 is not one of example.com's designated mail servers.")
    expect(r.trace.map((s) => `${s.depth} ${s.term} ${s.outcome}`)).toEqual(['0 ip4:192.0.2.0/24 no_match', '1 ip6:2001:db8:5::/48 no_match', '1 ~all match', '0 include:partner.example.net no_match', '0 -all match'])
  })

  it('temperror when an include times out, permerror when it has no record', async () => {
    const timeout = await checkHost(zoneDns({ 'example.com': [{ TXT: 'v=spf1 include:slow.example.net -all' }], 'slow.example.net': ['TIMEOUT'] }), 'example.com', { ip: '192.0.2.1', sender: 'a@example.com', helo: 'h', now: NOW })
    expect(timeout).toMatchObject({ result: 'temperror', reason: expect.stringMatching(/slow\.example\.net/) })
    const none = await checkHost(zoneDns({ 'example.com': [{ TXT: 'v=spf1 include:none.example.net -all' }] }), 'example.com', { ip: '192.0.2.1', sender: 'a@example.com', helo: 'h', now: NOW })
    expect(none).toMatchObject({ result: 'permerror', reason: 'include:none.example.net has no SPF record' })
  })
})

describe('bounds', () => {
  it('a record with hundreds of a: terms is answered, with resolution capped', async () => {
    const record = `v=spf1 ${Array.from({ length: 300 }, (_, i) => `a:h${i}.example.com`).join(' ')} -all`
    const dns = zoneDns({ 'example.com': [{ TXT: record }] })
    const d = await inspectSpf(dns, 'example.com', { now: NOW })
    expect(d.lookups.count).toBe(300)
    expect(d.tree[0]!.terms.filter((t) => t.note?.startsWith('not resolved')).length).toBe(240)
    expect(dns.log.length).toBeLessThan(200)
    expect(d.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['spf.too_many_lookups', 'spf.tree_truncated']))
  })
})
