import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DELEGATION_FINDINGS } from '../../registry/domain/schemas/delegation-findings.ts'
import { ROOT } from '../../runtime/app.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { bindEnv } from '../support/bind-env.ts'
import type { BindServer } from '../support/bind-server.ts'
import { bindAvailable, startBind } from '../support/bind-server.ts'
import type { TestDnsServer } from '../support/dns-server.ts'
import { startDnsServer } from '../support/dns-server.ts'
import { addLoopbackAddresses } from '../support/loopback-addresses.ts'

// Delegation health against real BIND name servers on 127.0.53.x:53, each made
// faulty on purpose: a server that is not authoritative (REFUSED), one a serial
// behind, one with a different NS set, one that hands out the zone (AXFR), one that
// recurses for anyone, an address where nothing listens. The resolver (another
// named) serves each zone's NS set and the servers' addresses. Every server's row is
// compared with what dig concludes asking the same server.
//
// Address plan (test data written for this file): 127.0.53.0/24 is AS64500 and
// 127.0.54.0/24 AS64501 in the test's offline AS rows, so a zone served from
// 127.0.53.1 and 127.0.54.2 is diverse in AS and /24; 127.0.55.0/24 is AS64500
// again (one AS, two /24s). The parent (test.) also listens on ::1, with a
// referral of its own for split.test. 127.0.55.11 is the service's own test DNS
// server, for the faults BIND will not make: no EDNS0, no TCP.

const execFileAsync = promisify(execFile)
const at = (n: number) => (n === 2 ? '127.0.54.2' : `127.0.53.${n}`)
const FAKE = '127.0.55.11'
const NO_AXFR = 'allow-transfer { none; };'

function zone(origin: string, serial: number, ns: Array<[string, string]>): string {
  return [
    `$ORIGIN ${origin}.`,
    '$TTL 300',
    `@ IN SOA ${ns[0]![0]}.${origin}. hostmaster.${origin}. ${serial} 3600 900 604800 60`,
    ...[...new Set(ns.map(([label]) => `@ IN NS ${label}.${origin}.`))],
    ...ns.map(([label, address]) => `${label} IN ${address.includes(':') ? 'AAAA' : 'A'} ${address}`),
    'www IN A 192.0.2.1',
    '',
  ].join('\n')
}

// [zone, its NS set (label, address)]: what the resolver serves.
const ZONES: Record<string, Array<[string, string]>> = {
  'good.test': [['a', at(1)], ['b', at(2)]],
  'skew.test': [['a', at(1)], ['b', at(3)]],
  'lame.test': [['a', at(1)], ['b', at(4)]],
  'nsdiff.test': [['a', at(1)], ['b', at(2)]],
  'axfr.test': [['a', at(5)]],
  'open.test': [['a', at(6)]],
  'silent.test': [['a', at(1)], ['b', at(7)]],
}
// Faults at the parent (test., on 127.0.53.8): the glue of b.glue.test names another
// address; pdiff.test is delegated to a and c.good.test while the zone says a and b;
// noglue.test's in-zone name server has no glue (check-integrity off so BIND loads it).
ZONES['glue.test'] = [['a', at(1)], ['b', at(2)]]
ZONES['pdiff.test'] = [['a', at(1)], ['b', at(2)]]
ZONES['noglue.test'] = [['a', at(1)], ['b', at(2)]]
// split.test: the parent on ::1 delegates it to a only (parent_servers_differ).
ZONES['split.test'] = [['a', at(1)], ['b', at(2)]]
// gluesplit.test: the parent on ::1 gives b.gluesplit.test another glue address (parent_servers_differ, not glue_mismatch: the first referral is right).
ZONES['gluesplit.test'] = [['a', at(1)], ['b', at(2)]]
// On the test DNS server: oneas.test in one AS over two /24s; noedns.test's b answers FORMERR
// to a query with an OPT record; notcp.test's b resets TCP.
ZONES['oneas.test'] = [['a', at(1)], ['b', FAKE]]
ZONES['noedns.test'] = [['a', at(2)], ['b', FAKE]]
ZONES['notcp.test'] = [['a', at(2)], ['b', FAKE]]
// six.test: b has an IPv6 address too (::1, where the IPv6 parent's named also serves six.test): a child server asked over IPv6.
ZONES['six.test'] = [['a', at(2)], ['b', at(1)], ['b', '::1']]
function parentZone(v6 = false): string {
  const lines = ['$ORIGIN test.', '$TTL 300', '@ IN SOA p.test. hostmaster.test. 1 3600 900 604800 60', '@ IN NS p.test.', `p IN A ${at(8)}`, 'p IN AAAA ::1']
  for (const [origin, ns] of Object.entries(ZONES)) {
    const names: Array<[string, string]> = origin === 'pdiff.test' ? [ns[0]!, ['c.good.test.', '']] : origin === 'noaddr.test' ? [...ns, ['c.good.test.', '']] : v6 && origin === 'split.test' ? [ns[0]!] : ns
    for (const [label, address] of names) {
      const name = label.endsWith('.') ? label : `${label}.${origin}.`
      lines.push(`${origin}. IN NS ${name}`)
      if (!label.endsWith('.') && origin !== 'noglue.test') lines.push(`${name} IN ${address.includes(':') ? 'AAAA' : 'A'} ${(origin === 'glue.test' || (v6 && origin === 'gluesplit.test')) && label === 'b' ? at(9) : address}`)
    }
  }
  return `${[...new Set(lines)].join('\n')}\n`
}
ZONES['noaddr.test'] = [['a', at(1)], ['b', at(2)]]
// noaddr.test: a third name server whose name has no address record (out of the zone: BIND will not load an in-zone NS without one).
const NOADDR = zone('noaddr.test', 10, [['a', at(1)], ['b', at(2)]]).replace('@ IN NS b.noaddr.test.', '@ IN NS b.noaddr.test.\n@ IN NS c.good.test.')

let resolver: BindServer
const servers: BindServer[] = []
let fake: TestDnsServer
let t: TestApp
let dir: string
const v4 = (text: string) => text.split('.').reduce((n, octet) => n * 256 + Number(octet), 0)
/** The offline IP -> AS rows (ip-location-db "-num" layout): test data. */
const ASN_V4 = [
  [v4('127.0.53.0'), v4('127.0.53.255'), 64500, 'Example DNS One (test row)'],
  [v4('127.0.54.0'), v4('127.0.54.255'), 64501, 'Example DNS Two (test row)'],
  [v4('127.0.55.0'), v4('127.0.55.255'), 64500, 'Example DNS One (test row)'],
] as const

beforeAll(async () => {
  if (!bindAvailable()) throw new Error('BIND 9 (named, dig) is needed: apt-get install bind9 bind9-dnsutils (.ci/run does this)')
  addLoopbackAddresses([...[1, 2, 3, 4, 5, 6, 8].map(at), FAKE])
  dir = mkdtempSync(join(tmpdir(), 'infralens-delegation-'))
  writeFileSync(join(dir, 'asn-v4.csv'), ASN_V4.map((r) => `${r[0]},${r[1]},${r[2]},"${r[3]}"`).join('\n') + '\n')
  writeFileSync(join(dir, 'asn-v6.csv'), `${0x20010db8n << 96n},${(0x20010db8n << 96n) + (1n << 96n) - 1n},64502,"Example v6 (test row)"\n`)
  const full = (origin: string, serial = 10) => zone(origin, serial, ZONES[origin]!)
  const pick = (...origins: string[]) => Object.fromEntries(origins.map((o) => [o, full(o)]))
  const parent = parentZone()
  resolver = await startBind({ ...Object.fromEntries(Object.keys(ZONES).map((o) => [o, full(o)])), 'noaddr.test': NOADDR, test: parent }, '127.0.0.1', { zoneOptions: `${NO_AXFR} check-integrity no;` })
  servers.push(
    await startBind({ 'good.test': full('good.test'), 'skew.test': full('skew.test'), 'lame.test': full('lame.test'), 'silent.test': full('silent.test'), 'noaddr.test': NOADDR, 'nsdiff.test': zone('nsdiff.test', 10, [['a', at(1)]]), ...pick('glue.test', 'pdiff.test', 'noglue.test', 'split.test', 'gluesplit.test', 'oneas.test', 'six.test') }, at(1), { port: 53, zoneOptions: NO_AXFR }),
    await startBind({ 'good.test': full('good.test'), 'nsdiff.test': full('nsdiff.test'), 'noaddr.test': NOADDR, ...pick('glue.test', 'pdiff.test', 'noglue.test', 'split.test', 'gluesplit.test', 'noedns.test', 'notcp.test', 'six.test') }, at(2), { port: 53, zoneOptions: NO_AXFR }),
    await startBind({ test: parent }, at(8), { port: 53, zoneOptions: `${NO_AXFR} check-integrity no;` }),
    await startBind({ test: parentZone(true), 'six.test': full('six.test') }, '::1', { port: 53, zoneOptions: `${NO_AXFR} check-integrity no;` }),
    await startBind({ 'skew.test': full('skew.test', 9) }, at(3), { port: 53, zoneOptions: NO_AXFR }),
    await startBind({ 'elsewhere.test': zone('elsewhere.test', 1, [['a', at(4)]]) }, at(4), { port: 53, zoneOptions: NO_AXFR }),
    await startBind({ 'axfr.test': full('axfr.test') }, at(5), { port: 53, zoneOptions: 'allow-transfer { any; };' }),
    await startBind({ 'open.test': full('open.test') }, at(6), { port: 53, zoneOptions: NO_AXFR, recursion: 'recursion yes; allow-recursion { any; };' }),
  )
  fake = await startDnsServer({ host: FAKE, port: 53, zones: ['oneas.test', 'noedns.test', 'notcp.test'].map((o) => full(o)) })
  fake.setFault([
    { kind: 'no-edns', name: 'noedns.test' },
    { kind: 'tcp-reset', name: 'notcp.test' },
  ])
  t = await startTestApp({ ...env(), INFRALENS_ALLOW_PRIVATE_TARGETS: 'true' })
}, 90_000)
const env = () => ({
  INFRALENS_DNS_RESOLVERS: `${resolver.host}:${resolver.port}`,
  INFRALENS_DNS_TIMEOUT_MS: '1000',
  INFRALENS_RATE_LIMITS: 'anonymous=100000',
  INFRALENS_ASN_IPV4_CSV: join(dir, 'asn-v4.csv'),
  INFRALENS_ASN_IPV6_CSV: join(dir, 'asn-v6.csv'),
})
afterAll(async () => {
  await t?.close()
  await fake?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
  for (const s of servers) await s.close()
  await resolver?.close()
})

type Rec = Record<string, any>
const ids = (d: Rec) => (d.findings as Rec[]).map((f) => f.id as string).sort()

/**
 * dig asking one server directly: its status, flags, SOA serial (plain queries, as
 * the service asks), whether an EDNS0 query gets an OPT record and the same status,
 * whether TCP answers, and whether AXFR gave the zone.
 */
async function digServer(address: string, name: string) {
  // Not spawnSync: the test DNS server answers from this process's event loop. dig exits 9 when nothing answers.
  const run = (args: string[]) =>
    execFileAsync('dig', [`@${address}`, name, ...args, '+nocookie', '+time=1', '+tries=1'], { env: bindEnv(), encoding: 'utf8' }).then(
      (r) => r.stdout,
      (error: { stdout?: string }) => error.stdout ?? '',
    )
  const [soa, edns, tcp, rec, axfr] = await Promise.all([
    run(['SOA', '+norecurse', '+noedns']),
    run(['SOA', '+norecurse', '+edns=0', '+noednsnegotiation']),
    run(['SOA', '+norecurse', '+noedns', '+tcp']),
    run(['SOA', '+recurse', '+noedns']),
    run(['AXFR']),
  ])
  const flags = (out: string) => /;; flags: ([a-z ]+);/.exec(out)?.[1]?.split(' ') ?? []
  const status = (out: string) => /status: ([A-Z]+)/.exec(out)?.[1] ?? 'no answer'
  return {
    status: status(soa),
    aa: flags(soa).includes('aa'),
    serial: Number(/\tSOA\t\S+ \S+ (\d+) /.exec(soa)?.[1] ?? Number.NaN),
    edns: /OPT PSEUDOSECTION/.test(edns) && status(edns) === status(soa),
    tcp: status(tcp) === status(soa),
    ra: flags(rec).includes('ra'),
    axfr: /XFR size: \d+ records/.test(axfr),
  }
}

describe('/api/domain/delegation: BIND servers made faulty on purpose', () => {
  const cases: Array<[string, string[]]> = [
    ['good.test', []],
    ['skew.test', ['delegation.ns_single_as', 'delegation.ns_single_prefix', 'delegation.serial_mismatch']],
    ['lame.test', ['delegation.lame', 'delegation.ns_single_as', 'delegation.ns_single_prefix']],
    ['nsdiff.test', ['delegation.ns_set_mismatch']],
    ['axfr.test', ['delegation.axfr_allowed']],
    ['open.test', ['delegation.open_recursion']],
    ['silent.test', ['delegation.ns_single_as', 'delegation.ns_single_prefix', 'delegation.unreachable']],
    ['glue.test', ['delegation.glue_mismatch']],
    ['pdiff.test', ['delegation.parent_child_ns_differ']],
    ['noglue.test', ['delegation.glue_missing']],
    ['split.test', ['delegation.parent_servers_differ']],
    ['gluesplit.test', ['delegation.parent_servers_differ']],
    ['oneas.test', ['delegation.ns_single_as']],
    ['noedns.test', ['delegation.edns_unsupported']],
    ['notcp.test', ['delegation.tcp_unsupported']],
    ['six.test', []],
  ]
  for (const [domain, expected] of cases) {
    it(`${domain}: ${expected.join(', ') || 'healthy'}`, async () => {
      const res = await t.json(`/api/domain/delegation/${domain}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const d = res.body.data
      expect(ids(d), JSON.stringify(d, null, 1)).toEqual(expected)
      expect(d.ns).toEqual({ status: 'answer', names: [...new Set(ZONES[domain]!.map(([label]) => `${label}.${domain}`))].sort() })
      expect(d.servers.map((s: Rec) => [s.name, s.address])).toEqual(ZONES[domain]!.map(([label, address]) => [`${label}.${domain}`, address]))
      for (const f of d.findings as Rec[]) {
        const entry: { severity: string; zonemaster?: string } = DELEGATION_FINDINGS[f.id as keyof typeof DELEGATION_FINDINGS]
        expect(f).toMatchObject({ severity: entry.severity, zonemaster: entry.zonemaster ?? null })
        expect(f.servers.length).toBeGreaterThan(0)
      }
      // Each row says what dig finds asking that server.
      for (const s of d.servers as Rec[]) {
        const dig = await digServer(s.address, domain)
        if (s.status === 'unreachable') {
          expect(dig.status).toBe('no answer')
          continue
        }
        expect({ rcode: s.rcode, aa: s.authoritative, edns: s.edns, tcp: s.tcp, ra: s.recursion_available, axfr: s.axfr_allowed }).toEqual({ rcode: dig.status, aa: dig.aa, edns: dig.edns, tcp: dig.tcp, ra: dig.ra, axfr: dig.axfr })
        if (s.status === 'ok') expect(s.serial).toBe(dig.serial)
        expect(s.status).toBe(dig.status === 'NOERROR' && dig.aa ? 'ok' : 'lame')
      }
    })
  }

  /** The referral dig gets from one parent server: NS set and A/AAAA glue. */
  function digReferral(server: string, domain: string) {
    const out = spawnSync('dig', [`@${server}`, domain, 'NS', '+norecurse', '+nocookie', '+time=1', '+tries=1'], { env: bindEnv(), encoding: 'utf8' }).stdout
    const section = (name: string) => out.split(`;; ${name} SECTION:`)[1]?.split('\n\n')[0]?.split('\n').slice(1) ?? []
    // A server that serves the child too (::1 serves six.test) answers with the child's NS set: the service takes that as the referral.
    const nsOf = (name: string) => section(name).map((l) => l.split(/\s+/)).filter((f) => f[3] === 'NS').map((f) => f[4]!.replace(/\.$/, '')).sort()
    const ns = nsOf('ANSWER').length ? nsOf('ANSWER') : nsOf('AUTHORITY')
    const glue = section('ADDITIONAL').map((l) => l.split(/\s+/)).filter((f) => f[3] === 'A' || f[3] === 'AAAA')
    return { ns, glueOf: (name: string) => glue.filter((f) => f[0]!.replace(/\.$/, '') === name).map((f) => f[4]) }
  }

  it('the parent\'s referral from every parent server, over IPv4 and IPv6, as dig gets it from each', async () => {
    for (const domain of ['good.test', 'glue.test', 'pdiff.test', 'noglue.test', 'split.test', 'gluesplit.test', 'six.test']) {
      const d = (await t.json(`/api/domain/delegation/${domain}`)).body.data
      expect(d.parent).toMatchObject({ zone: 'test', server: `p.test/${at(8)}`, ns: digReferral(at(8), domain).ns, error: null })
      expect(d.parent.servers.map((s: Rec) => [s.name, s.address, s.error])).toEqual([
        ['p.test', at(8), null],
        ['p.test', '::1', null],
      ])
      for (const s of d.parent.servers as Rec[]) {
        const dig = digReferral(s.address, domain)
        expect(s.ns).toEqual(dig.ns)
        for (const g of s.glue as Rec[]) expect(g.addresses).toEqual(dig.glueOf(g.name))
      }
    }
  })

  it('split.test: the IPv6 parent server delegates to a only, the IPv4 one to a and b', async () => {
    const d = (await t.json('/api/domain/delegation/split.test')).body.data
    expect(d.parent.servers.map((s: Rec) => s.ns)).toEqual([['a.split.test', 'b.split.test'], ['a.split.test']])
    expect(d.findings[0].servers).toEqual([`p.test/${at(8)}`, 'p.test/::1'])
  })

  it('each address\'s AS from the offline data; one AS over two /24s is ns_single_as only', async () => {
    const rows = async (domain: string) => ((await t.json(`/api/domain/delegation/${domain}`)).body.data.servers as Rec[]).map((s) => [s.address, s.asn])
    expect(await rows('good.test')).toEqual([[at(1), 64500], [at(2), 64501]])
    expect(await rows('oneas.test')).toEqual([[at(1), 64500], [FAKE, 64500]])
    const skew = (await t.json('/api/domain/delegation/skew.test')).body.data
    expect(skew.findings.find((f: Rec) => f.id === 'delegation.ns_single_prefix').message).toContain('127.0.53.0/24')
    expect(skew.findings.find((f: Rec) => f.id === 'delegation.ns_single_as').message).toContain('AS64500')
  })

  it('the test DNS server: FORMERR to EDNS0, plain queries answered; TCP reset', async () => {
    const noedns = (await t.json('/api/domain/delegation/noedns.test')).body.data
    expect(noedns.servers.map((s: Rec) => [s.address, s.status, s.edns, s.tcp])).toEqual([[at(2), 'ok', true, true], [FAKE, 'ok', false, true]])
    expect(noedns.findings[0]).toMatchObject({ zonemaster: 'EDNS01', servers: [`b.noedns.test/${FAKE}`] })
    const notcp = (await t.json('/api/domain/delegation/notcp.test')).body.data
    expect(notcp.servers.map((s: Rec) => [s.address, s.status, s.edns, s.tcp])).toEqual([[at(2), 'ok', true, true], [FAKE, 'ok', true, false]])
    expect(notcp.findings[0]).toMatchObject({ zonemaster: 'CONNECTIVITY02', servers: [`b.notcp.test/${FAKE}`] })
  })

  it('the serial skew names the server behind and both serials', async () => {
    const d = (await t.json('/api/domain/delegation/skew.test')).body.data
    expect(d.serials).toEqual([9, 10])
    expect(d.findings.find((f: Rec) => f.id === 'delegation.serial_mismatch').servers).toEqual([`b.skew.test/${at(3)}`])
  })

  it('a name server name without an address: delegation.ns_no_address, the others still asked', async () => {
    const d = (await t.json('/api/domain/delegation/noaddr.test')).body.data
    expect(d.ns.names).toEqual(['a.noaddr.test', 'b.noaddr.test', 'c.good.test'])
    expect(d.servers.map((s: Rec) => [s.name, s.status])).toEqual([
      ['a.noaddr.test', 'ok'],
      ['b.noaddr.test', 'ok'],
    ])
    expect(ids(d)).toEqual(['delegation.ns_no_address'])
    expect(d.findings[0].servers).toEqual(['c.good.test'])
  })

  it('a name with no NS records: delegation.no_nameservers', async () => {
    const d = (await t.json('/api/domain/delegation/www.good.test')).body.data
    expect(d).toMatchObject({ servers: [], ns: { status: 'nodata', names: [] } })
    expect(ids(d)).toEqual(['delegation.no_nameservers'])
  })

  it('without INFRALENS_ALLOW_PRIVATE_TARGETS the loopback servers are not asked', async () => {
    const strict = await startTestApp(env())
    try {
      const d = (await strict.json('/api/domain/delegation/good.test')).body.data
      expect(d.servers.map((s: Rec) => s.status)).toEqual(['refused_target', 'refused_target'])
      expect(ids(d)).toEqual(['delegation.address_refused', 'delegation.parent_unchecked'])
      expect(d.parent).toMatchObject({ zone: 'test', ns: null })
      expect(d.parent.error).toContain('not asked')
    } finally {
      await strict.close()
    }
  })

  it('docs/dns.md lists every finding id with its severity and Zonemaster test case', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'dns.md'), 'utf8')
    const rows = [...doc.matchAll(/^\| `(delegation\.[a-z_]+)` \| ([a-z]+) \| ([A-Z0-9]+|—) \|/gm)].map((m) => [m[1], m[2], m[3]])
    const catalog = Object.entries(DELEGATION_FINDINGS).map(([id, f]) => [id, f.severity, (f as { zonemaster?: string }).zonemaster ?? '—'])
    expect(rows.sort()).toEqual(catalog.sort())
  })
})
