import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DELEGATION_FINDINGS } from '../../registry/domain/schemas/delegation-findings.ts'
import { ROOT } from '../../runtime/app.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { bindEnv } from '../support/bind-env.ts'
import type { BindServer } from '../support/bind-server.ts'
import { bindAvailable, startBind } from '../support/bind-server.ts'
import { addLoopbackAddresses } from '../support/loopback-addresses.ts'

// Delegation health against real BIND name servers on 127.0.53.x:53, each made
// faulty on purpose: a server that is not authoritative (REFUSED), one a serial
// behind, one with a different NS set, one that hands out the zone (AXFR), one that
// recurses for anyone, an address where nothing listens. The resolver (another
// named) serves each zone's NS set and the servers' addresses. Every server's row is
// compared with what dig concludes asking the same server.

const at = (n: number) => `127.0.53.${n}`
const NO_AXFR = 'allow-transfer { none; };'

function zone(origin: string, serial: number, ns: Array<[string, string]>): string {
  return [
    `$ORIGIN ${origin}.`,
    '$TTL 300',
    `@ IN SOA ${ns[0]![0]}.${origin}. hostmaster.${origin}. ${serial} 3600 900 604800 60`,
    ...ns.map(([label]) => `@ IN NS ${label}.${origin}.`),
    ...ns.map(([label, address]) => `${label} IN A ${address}`),
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
function parentZone(): string {
  const lines = ['$ORIGIN test.', '$TTL 300', '@ IN SOA p.test. hostmaster.test. 1 3600 900 604800 60', '@ IN NS p.test.', `p IN A ${at(8)}`]
  for (const [origin, ns] of Object.entries(ZONES)) {
    const names: Array<[string, string]> = origin === 'pdiff.test' ? [ns[0]!, ['c.good.test.', '']] : origin === 'noaddr.test' ? [...ns, ['c.good.test.', '']] : ns
    for (const [label, address] of names) {
      const name = label.endsWith('.') ? label : `${label}.${origin}.`
      lines.push(`${origin}. IN NS ${name}`)
      if (!label.endsWith('.') && origin !== 'noglue.test') lines.push(`${name} IN A ${origin === 'glue.test' && label === 'b' ? at(9) : address}`)
    }
  }
  return `${lines.join('\n')}\n`
}
ZONES['noaddr.test'] = [['a', at(1)], ['b', at(2)]]
// noaddr.test: a third name server whose name has no address record (out of the zone: BIND will not load an in-zone NS without one).
const NOADDR = zone('noaddr.test', 10, [['a', at(1)], ['b', at(2)]]).replace('@ IN NS b.noaddr.test.', '@ IN NS b.noaddr.test.\n@ IN NS c.good.test.')

let resolver: BindServer
const servers: BindServer[] = []
let t: TestApp

beforeAll(async () => {
  if (!bindAvailable()) throw new Error('BIND 9 (named, dig) is needed: apt-get install bind9 bind9-dnsutils (.ci/run does this)')
  addLoopbackAddresses([1, 2, 3, 4, 5, 6, 8].map(at))
  const full = (origin: string, serial = 10) => zone(origin, serial, ZONES[origin]!)
  const pick = (...origins: string[]) => Object.fromEntries(origins.map((o) => [o, full(o)]))
  const parent = parentZone()
  resolver = await startBind({ ...Object.fromEntries(Object.keys(ZONES).map((o) => [o, full(o)])), 'noaddr.test': NOADDR, test: parent }, '127.0.0.1', { zoneOptions: `${NO_AXFR} check-integrity no;` })
  servers.push(
    await startBind({ 'good.test': full('good.test'), 'skew.test': full('skew.test'), 'lame.test': full('lame.test'), 'silent.test': full('silent.test'), 'noaddr.test': NOADDR, 'nsdiff.test': zone('nsdiff.test', 10, [['a', at(1)]]), ...pick('glue.test', 'pdiff.test', 'noglue.test') }, at(1), { port: 53, zoneOptions: NO_AXFR }),
    await startBind({ 'good.test': full('good.test'), 'nsdiff.test': full('nsdiff.test'), 'noaddr.test': NOADDR, ...pick('glue.test', 'pdiff.test', 'noglue.test') }, at(2), { port: 53, zoneOptions: NO_AXFR }),
    await startBind({ test: parent }, at(8), { port: 53, zoneOptions: `${NO_AXFR} check-integrity no;` }),
    await startBind({ 'skew.test': full('skew.test', 9) }, at(3), { port: 53, zoneOptions: NO_AXFR }),
    await startBind({ 'elsewhere.test': zone('elsewhere.test', 1, [['a', at(4)]]) }, at(4), { port: 53, zoneOptions: NO_AXFR }),
    await startBind({ 'axfr.test': full('axfr.test') }, at(5), { port: 53, zoneOptions: 'allow-transfer { any; };' }),
    await startBind({ 'open.test': full('open.test') }, at(6), { port: 53, zoneOptions: NO_AXFR, recursion: 'recursion yes; allow-recursion { any; };' }),
  )
  t = await startTestApp({ INFRALENS_DNS_RESOLVERS: `${resolver.host}:${resolver.port}`, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true', INFRALENS_DNS_TIMEOUT_MS: '1000', INFRALENS_RATE_LIMITS: 'anonymous=100000' })
}, 90_000)
afterAll(async () => {
  await t?.close()
  for (const s of servers) await s.close()
  await resolver?.close()
})

type Rec = Record<string, any>
const ids = (d: Rec) => (d.findings as Rec[]).map((f) => f.id as string).sort()

/** dig asking one server directly: its status, flags, SOA serial, and whether AXFR gave the zone. */
function digServer(address: string, name: string) {
  const run = (args: string[]) => spawnSync('dig', [`@${address}`, name, ...args, '+nocookie', '+time=1', '+tries=1'], { env: bindEnv(), encoding: 'utf8' }).stdout
  const soa = run(['SOA', '+norecurse'])
  const rec = run(['SOA', '+recurse'])
  const axfr = run(['AXFR'])
  const flags = (out: string) => /;; flags: ([a-z ]+);/.exec(out)?.[1]?.split(' ') ?? []
  return {
    status: /status: ([A-Z]+)/.exec(soa)?.[1] ?? 'no answer',
    aa: flags(soa).includes('aa'),
    serial: Number(/\tSOA\t\S+ \S+ (\d+) /.exec(soa)?.[1] ?? Number.NaN),
    ra: flags(rec).includes('ra'),
    axfr: /XFR size: \d+ records/.test(axfr),
  }
}

describe('/api/domain/delegation: BIND servers made faulty on purpose', () => {
  const cases: Array<[string, string[]]> = [
    ['good.test', []],
    ['skew.test', ['delegation.serial_mismatch']],
    ['lame.test', ['delegation.lame']],
    ['nsdiff.test', ['delegation.ns_set_mismatch']],
    ['axfr.test', ['delegation.axfr_allowed']],
    ['open.test', ['delegation.open_recursion']],
    ['silent.test', ['delegation.unreachable']],
    ['glue.test', ['delegation.glue_mismatch']],
    ['pdiff.test', ['delegation.parent_child_ns_differ']],
    ['noglue.test', ['delegation.glue_missing']],
  ]
  for (const [domain, expected] of cases) {
    it(`${domain}: ${expected.join(', ') || 'healthy'}`, async () => {
      const res = await t.json(`/api/domain/delegation/${domain}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const d = res.body.data
      expect(ids(d), JSON.stringify(d, null, 1)).toEqual(expected)
      expect(d.ns).toEqual({ status: 'answer', names: ZONES[domain]!.map(([label]) => `${label}.${domain}`).sort() })
      expect(d.servers.map((s: Rec) => [s.name, s.address])).toEqual(ZONES[domain]!.map(([label, address]) => [`${label}.${domain}`, address]))
      for (const f of d.findings as Rec[]) {
        const entry: { severity: string; zonemaster?: string } = DELEGATION_FINDINGS[f.id as keyof typeof DELEGATION_FINDINGS]
        expect(f).toMatchObject({ severity: entry.severity, zonemaster: entry.zonemaster ?? null })
        expect(f.servers.length).toBeGreaterThan(0)
      }
      // Each row says what dig finds asking that server.
      for (const s of d.servers as Rec[]) {
        const dig = digServer(s.address, domain)
        if (s.status === 'unreachable') {
          expect(dig.status).toBe('no answer')
          continue
        }
        expect({ rcode: s.rcode, aa: s.authoritative, ra: s.recursion_available, axfr: s.axfr_allowed }).toEqual({ rcode: dig.status, aa: dig.aa, ra: dig.ra, axfr: dig.axfr })
        if (s.status === 'ok') expect(s.serial).toBe(dig.serial)
        expect(s.status).toBe(dig.status === 'NOERROR' && dig.aa ? 'ok' : 'lame')
      }
    })
  }

  it('the parent\'s referral as dig gets it from the parent server: NS set and glue', async () => {
    for (const domain of ['good.test', 'glue.test', 'pdiff.test', 'noglue.test']) {
      const d = (await t.json(`/api/domain/delegation/${domain}`)).body.data
      const out = spawnSync('dig', [`@${at(8)}`, domain, 'NS', '+norecurse', '+nocookie', '+time=1', '+tries=1'], { env: bindEnv(), encoding: 'utf8' }).stdout
      const section = (name: string) => out.split(`;; ${name} SECTION:`)[1]?.split('\n\n')[0]?.split('\n').slice(1) ?? []
      const ns = section('AUTHORITY').map((l) => l.split(/\s+/)).filter((f) => f[3] === 'NS').map((f) => f[4]!.replace(/\.$/, '')).sort()
      const glue = section('ADDITIONAL').map((l) => l.split(/\s+/)).filter((f) => f[3] === 'A')
      expect(d.parent).toMatchObject({ zone: 'test', server: `p.test/${at(8)}`, ns, error: null })
      for (const g of d.parent.glue as Rec[]) expect(g.addresses).toEqual(glue.filter((f) => f[0]!.replace(/\.$/, '') === g.name).map((f) => f[4]))
    }
  })

  it('the serial skew names the server behind and both serials', async () => {
    const d = (await t.json('/api/domain/delegation/skew.test')).body.data
    expect(d.serials).toEqual([9, 10])
    expect(d.findings[0].servers).toEqual([`b.skew.test/${at(3)}`])
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
    const strict = await startTestApp({ INFRALENS_DNS_RESOLVERS: `${resolver.host}:${resolver.port}`, INFRALENS_DNS_TIMEOUT_MS: '1000' })
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
