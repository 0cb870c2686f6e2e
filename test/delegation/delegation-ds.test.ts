import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { bindEnv } from '../support/bind-env.ts'
import type { BindServer } from '../support/bind-server.ts'
import { bindAvailable, startBind } from '../support/bind-server.ts'
import { delv, delvAvailable } from '../support/delv.ts'
import type { FakeRdap } from '../support/fake-rdap.ts'
import { startFakeRdap } from '../support/fake-rdap.ts'
import { addLoopbackAddresses } from '../support/loopback-addresses.ts'
import type { SignedTree } from '../support/signed-tree.ts'
import { signTree } from '../support/signed-tree.ts'

// The parent's DS against the child's DNSKEY, and against the registry's RDAP
// secureDNS: a tree signed by BIND's tools for this run (test/support/signed-tree.ts),
// served by one named on 127.0.53.20:53 (the resolver and every zone's name server),
// with a stale DS on purpose (the DS of a key the zone never published), and a fake
// RDAP registry for .test whose secureDNS agrees, differs, or is missing. The DS
// verdict is compared with delv validating from the tree's trust anchor and with
// dnssec-dsfromkey computing the DS of every key dig gets from the zone. The zones
// and registry answers are test data written for this file.

const NS = '127.0.53.20'
const CHILDREN = ['signed.test', 'stale.test', 'regdiff.test', 'nordap.test', 'unsigned.test', 'regoff.test', 'regkeys.test']
const zoneText = (origin: string) =>
  [`$ORIGIN ${origin}.`, '$TTL 300', '@ IN SOA ns.root-servers.test. hostmaster.root-servers.test. 1 3600 900 604800 60', '@ IN NS ns.root-servers.test.', 'www IN A 192.0.2.1', ''].join('\n')

let tree: SignedTree
let named: BindServer
let rdap: FakeRdap
let t: TestApp

type Rec = Record<string, any>
const ids = (d: Rec) => (d.findings as Rec[]).map((f) => f.id as string).sort()
/** "stale.test. IN DS 1234 13 2 ABC..." to RDAP's dsData entry. */
function dsData(line: string) {
  const f = line.trim().split(/\s+/)
  return { keyTag: Number(f[3]), algorithm: Number(f[4]), digestType: Number(f[5]), digest: f.slice(6).join('') }
}
function rdapDomain(name: string, ds: Array<ReturnType<typeof dsData>>, secureDNS: Record<string, unknown> = { delegationSigned: ds.length > 0, dsData: ds }) {
  return {
    objectClassName: 'domain',
    ldhName: name.toUpperCase(),
    status: ['active'],
    events: [{ eventAction: 'registration', eventDate: '2020-01-01T00:00:00Z' }],
    secureDNS,
    nameservers: [{ objectClassName: 'nameserver', ldhName: 'NS.ROOT-SERVERS.TEST' }],
    rdapConformance: ['rdap_level_0'],
  }
}

beforeAll(async () => {
  if (!bindAvailable() || !delvAvailable()) throw new Error('BIND 9 (named, dig, delv, dnssec-*) is needed: apt-get install bind9 bind9-dnsutils')
  addLoopbackAddresses([NS])
  tree = signTree(
    CHILDREN.map((origin) => ({ origin, text: zoneText(origin), signed: origin !== 'unsigned.test', staleDs: origin === 'stale.test' })),
    { nsAddress: NS },
  )
  named = await startBind(tree.zones, NS, { port: 53, zoneOptions: 'allow-transfer { none; };' })
  rdap = await startFakeRdap()
  const registry = `${rdap.origin}/rdap.test-registry.test/`
  rdap.setBootstrap('dns', { version: '1.0', publication: '2026-01-01T00:00:00Z', services: [[['test'], [registry]]] })
  for (const origin of ['signed.test', 'stale.test']) rdap.serve(`/rdap.test-registry.test/domain/${origin}`, rdapDomain(origin, [dsData(tree.ds[origin]!)]))
  // regdiff.test: the registry holds another digest (a DS it never published).
  const other = dsData(tree.ds['regdiff.test']!)
  rdap.serve('/rdap.test-registry.test/domain/regdiff.test', rdapDomain('regdiff.test', [{ ...other, digest: `${other.digest.slice(0, -4)}0000` }]))
  rdap.serve('/rdap.test-registry.test/domain/unsigned.test', rdapDomain('unsigned.test', []))
  // regoff.test: the registry says the delegation is not signed; regkeys.test: it lists keys (keyData), no DS, so nothing to compare DS by DS.
  rdap.serve('/rdap.test-registry.test/domain/regoff.test', rdapDomain('regoff.test', [], { delegationSigned: false }))
  rdap.serve('/rdap.test-registry.test/domain/regkeys.test', rdapDomain('regkeys.test', [], { delegationSigned: true, keyData: [{ flags: 257, protocol: 3, algorithm: 13, publicKey: 'AAAA' }] }))
  // nordap.test: not served, a 404.
  t = await startTestApp({ ...rdap.env, INFRALENS_DNS_RESOLVERS: `${NS}:53`, INFRALENS_DNS_TIMEOUT_MS: '1000', INFRALENS_RATE_LIMITS: 'anonymous=100000' })
}, 120_000)
afterAll(async () => {
  await t?.close()
  await rdap?.close()
  await named?.close()
  tree?.close()
})

/** "tag alg type digest" from DS rdata fields (dig splits long digests into words). */
const dsText = (fields: string[]) => `${fields.slice(0, 3).join(' ')} ${fields.slice(3).join('')}`.toLowerCase()
/** The DS of every key in the zone's DNSKEY RRset as dig gets it, computed by dnssec-dsfromkey (-A: ZSKs too). */
function dsOfServedKeys(origin: string): string[] {
  const keys = spawnSync('dig', [`@${NS}`, origin, 'DNSKEY', '+norecurse', '+noall', '+answer', '+nocookie'], { env: bindEnv(), encoding: 'utf8' }).stdout
  if (!keys.trim()) return []
  const out = spawnSync('dnssec-dsfromkey', ['-A', '-2', '-f', '-', origin], { env: bindEnv(), encoding: 'utf8', input: keys })
  return out.stdout.split('\n').filter((l) => l.includes(' DS ')).map((l) => dsText(l.trim().split(/\s+/).slice(3)))
}
function dsInDns(origin: string): string[] {
  const out = spawnSync('dig', [`@${NS}`, origin, 'DS', '+norecurse', '+noall', '+answer', '+nocookie'], { env: bindEnv(), encoding: 'utf8' }).stdout
  return out.split('\n').filter((l) => /\sDS\s/.test(l)).map((l) => dsText(l.trim().split(/\s+/).slice(4)))
}

describe('/api/domain/delegation: the parent\'s DS, the zone\'s DNSKEY and the registry\'s secureDNS', () => {
  const cases: Array<[string, string[], 'secure' | 'bogus' | 'insecure']> = [
    ['signed.test', [], 'secure'],
    ['stale.test', ['delegation.ds_no_matching_dnskey'], 'bogus'],
    ['regdiff.test', ['delegation.rdap_ds_differ'], 'secure'],
    ['nordap.test', ['delegation.rdap_unavailable'], 'secure'],
    ['unsigned.test', [], 'insecure'],
    ['regoff.test', ['delegation.rdap_ds_differ'], 'secure'],
    ['regkeys.test', [], 'secure'],
  ]
  for (const [domain, expected, delvVerdict] of cases) {
    it(`${domain}: ${expected.join(', ') || 'no DS finding'}; delv: ${delvVerdict}`, async () => {
      const res = await t.json(`/api/domain/delegation/${domain}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const d = res.body.data
      expect(ids(d), JSON.stringify(d.findings, null, 1)).toEqual(expected)
      // delv, validating from the tree's anchor, agrees: a stale DS is a broken chain.
      const verdict = delv(named, tree.anchorConf, domain, 'SOA')
      expect(verdict.status, verdict.lines.join('\n')).toBe(delvVerdict)
      // Each DS row's verdict is dnssec-dsfromkey's over the keys dig gets from the zone.
      const served = dsOfServedKeys(domain)
      const rows = (d.dnssec.ds as Rec[]).map((r) => [`${r.key_tag} ${r.algorithm} ${r.digest_type} ${r.digest}`, r.matches_key])
      expect(rows.map((r) => r[0]).sort()).toEqual(dsInDns(domain).sort())
      for (const [ds, matches] of rows) expect(matches).toBe(served.includes(ds as string))
    })
  }

  it('the registry\'s view: its DS set beside the DNS one, and why it is missing', async () => {
    const regdiff = (await t.json('/api/domain/delegation/regdiff.test')).body.data
    expect(regdiff.dnssec.rdap).toMatchObject({ status: 'ok', delegation_signed: true, error: null })
    expect(regdiff.dnssec.rdap.ds[0].digest).toMatch(/0000$/)
    expect(regdiff.findings[0].message).toMatch(/Only in DNS: .*Only at the registry: .*0000\./)
    const nordap = (await t.json('/api/domain/delegation/nordap.test')).body.data
    expect(nordap.dnssec.rdap).toMatchObject({ status: 'unavailable', ds: [] })
    expect(nordap.dnssec.rdap.error).toBeTruthy()
    // Without DS in DNS the registry is not asked.
    const unsigned = (await t.json('/api/domain/delegation/unsigned.test')).body.data
    expect(unsigned.dnssec).toEqual({ ds: [], dnskey_tags: [], rdap: null, error: null })
    expect(rdap.log.some((l) => l.path.includes('unsigned.test'))).toBe(false)
  })

  it('the stale DS names the key tags on both sides', async () => {
    const d = (await t.json('/api/domain/delegation/stale.test')).body.data
    const f = (d.findings as Rec[])[0]!
    expect(f).toMatchObject({ severity: 'critical', zonemaster: 'DNSSEC02' })
    expect(f.message).toContain(`key tags ${dsData(tree.ds['stale.test']!).keyTag}`)
    for (const tag of d.dnssec.dnskey_tags as number[]) expect(f.message).toContain(String(tag))
    expect(d.dnssec.dnskey_tags).toHaveLength(2)
  })
})
