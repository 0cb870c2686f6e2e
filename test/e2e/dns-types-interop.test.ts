import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { bindEnv } from '../support/bind-env.ts'
import type { BindServer } from '../support/bind-server.ts'
import { bindAvailable, startBind } from '../support/bind-server.ts'
import { delv, delvAvailable } from '../support/delv.ts'
import { ROOT_ANCHOR_CONF, ROOT_ANCHOR_DS, treeZones, zoneText } from '../support/dnssec-fixtures.ts'
import { REVERSE6_ZONE, REVERSE_ZONE } from '../support/loopback-dns.ts'

// Every record type /api/dns/query and the per-type endpoints decode, against BIND 9:
// what the service shows equals what dig prints for the same server, field for field
// (written back in presentation format). And dnssec=true: the verdict on each RRset
// equals delv's with the same trust anchor and server (named serving the signed tree).

const TYPES_ZONE = `
$ORIGIN types.test.
$TTL 300
@          IN SOA    ns1 hostmaster 2026112601 3600 900 604800 120
@          IN NS     ns1
ns1        IN A      192.0.2.53
@          IN CAA    0 issue "letsencrypt.org"
@          IN CAA    128 issuewild ";"
@          IN HTTPS  1 . alpn="h2,h3" ipv4hint=192.0.2.10 ipv6hint=2001:db8::10
svc        IN HTTPS  0 www.types.test.
svc        IN SVCB   1 svc-backend.types.test. port=8443 alpn="h2"
_sip._tcp  IN SRV    10 60 5060 sip.types.test.
_sip._tcp  IN SRV    20 0 5061 sip2.types.test.
_443._tcp.www IN TLSA 3 1 1 8BD1DA95272F7FA4FFB24137FC0ED03AAE67E5C4D8B3C50734E1050A7920B922
_25._tcp.mx IN TLSA  2 0 2 0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6A5D1A4B4A5E4B6A5C0D7F9A2B3C4D5E6F708192A3B4C5D6E7F8091A2B3C4D5E6F7
@          IN SSHFP  4 2 0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF
@          IN NAPTR  100 10 "S" "SIP+D2U" "" _sip._udp.types.test.
_ftp._tcp  IN URI    10 1 "ftp://ftp.types.test/public"
@          IN DNSKEY 257 3 13 lcMIEDADg+qZ+n1Jr7KIfBTfW06Xsvvg33wU5A7eSwZ4BcqAwOl3cMRQ NuDwuwm6m3tRy0YZAp0FdhVWc+/Ckw==
@          IN TXT    "v=spf1 -all"
child      IN NS     ns1.child
ns1.child  IN A      192.0.2.54
child      IN DS     61212 13 2 53F26D0558DAE29D6738E2711D168358C72FF2E30EE9EB15C644694389DADC9A
`

let named: BindServer
let signed: BindServer
let t: TestApp
let ts: TestApp

beforeAll(async () => {
  if (!bindAvailable() || !delvAvailable()) throw new Error('BIND 9 (named, dig, delv) is needed: apt-get install bind9 bind9-dnsutils (.ci/run does this)')
  named = await startBind({ 'types.test': TYPES_ZONE, '2.0.192.in-addr.arpa': REVERSE_ZONE, '8.b.d.0.1.0.0.2.ip6.arpa': REVERSE6_ZONE })
  const tree: Record<string, string> = {}
  for (const [origin, path] of Object.entries(treeZones())) tree[origin] = zoneText(path)
  signed = await startBind(tree)
  t = await startTestApp({ INFRALENS_DNS_RESOLVERS: `${named.host}:${named.port}`, INFRALENS_DNS_TIMEOUT_MS: '1000', INFRALENS_RATE_LIMITS: 'anonymous=100000' })
  ts = await startTestApp({
    INFRALENS_DNS_RESOLVERS: `${signed.host}:${signed.port}`,
    INFRALENS_TRUST_ANCHORS: ROOT_ANCHOR_DS,
    INFRALENS_DNS_TIMEOUT_MS: '1000',
    INFRALENS_RATE_LIMITS: 'anonymous=100000',
  })
}, 60_000)
afterAll(async () => {
  await t?.close()
  await ts?.close()
  await named?.close()
  await signed?.close()
})

/** dig's rdata of one type at a name, unsplit (+nosplit), hex upper-cased: presentation format. */
function digRdata(name: string, type: string): string[] {
  const out = spawnSync('dig', [`@${named.host}`, '-p', String(named.port), name, type, '+norecurse', '+noall', '+answer', '+nocookie', '+nosplit', '+time=2', '+tries=1'], {
    env: bindEnv(),
    encoding: 'utf8',
  })
  if (out.status !== 0) throw new Error(`dig failed: ${out.stderr}`)
  return out.stdout
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[3] === type)
    .map((f) => f.slice(4).join(' '))
    .sort()
}

type Rec = Record<string, any>
const q = (s: string) => JSON.stringify(s)
const svcParams = (p: Rec): string =>
  Object.entries(p)
    .map(([k, v]) => (Array.isArray(v) ? (k === 'alpn' ? `${k}=${q(v.join(','))}` : `${k}=${v.join(',')}`) : v === true ? k : `${k}=${String(v)}`))
    .join(' ')

// The service's fields written back as dig writes them.
const PRESENT: Record<string, (r: Rec) => string> = {
  SRV: (r) => `${r.priority} ${r.weight} ${r.port} ${r.target}.`,
  CAA: (r) => `${r.flags} ${r.tag} ${q(r.value)}`,
  TLSA: (r) => `${r.usage} ${r.selector} ${r.matching_type} ${String(r.association_data).toUpperCase()}`,
  HTTPS: (r) => `${r.priority} ${r.target === '.' ? '.' : `${r.target}.`}${Object.keys(r.params).length ? ` ${svcParams(r.params)}` : ''}`,
  SVCB: (r) => PRESENT.HTTPS!(r),
  SSHFP: (r) => `${r.algorithm} ${r.fingerprint_type} ${String(r.fingerprint).toUpperCase()}`,
  NAPTR: (r) => `${r.order} ${r.preference} ${q(r.flags)} ${q(r.services)} ${q(r.regexp)} ${r.replacement}.`,
  URI: (r) => `${r.priority} ${r.weight} ${q(r.target)}`,
  DNSKEY: (r) => `${r.flags} ${r.protocol} ${r.algorithm} ${r.key}`,
  DS: (r) => `${r.key_tag} ${r.algorithm} ${r.digest_type} ${String(r.digest).toUpperCase()}`,
  SOA: (r) => `${r.mname}. ${r.rname}. ${r.serial} ${r.refresh} ${r.retry} ${r.expire} ${r.minimum}`,
  PTR: (r) => `${r.target}.`,
  TXT: (r) => (r.strings as string[]).map(q).join(' '),
}

describe('/api/dns/query: every decoded type as dig prints it', () => {
  const cases: Array<[string, string]> = [
    ['SRV', '_sip._tcp.types.test'],
    ['CAA', 'types.test'],
    ['TLSA', '_443._tcp.www.types.test'],
    ['TLSA', '_25._tcp.mx.types.test'],
    ['HTTPS', 'types.test'],
    ['HTTPS', 'svc.types.test'],
    ['SVCB', 'svc.types.test'],
    ['SSHFP', 'types.test'],
    ['NAPTR', 'types.test'],
    ['URI', '_ftp._tcp.types.test'],
    ['DNSKEY', 'types.test'],
    ['DS', 'child.types.test'],
    ['SOA', 'types.test'],
    ['TXT', 'types.test'],
    ['PTR', '1.2.0.192.in-addr.arpa'],
  ]
  for (const [type, name] of cases) {
    it(`${type} ${name}`, async () => {
      const res = await t.json(`/api/dns/query/${name}?type=${type.toLowerCase()}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const d = res.body.data
      expect(d).toMatchObject({ domain: name, type, rcode: 'NOERROR', status: 'answer', dnssec: null })
      const expected = digRdata(name, type)
      expect(expected.length).toBeGreaterThan(0)
      expect((d.records as Rec[]).map(PRESENT[type]!).sort()).toEqual(expected)
    })
  }

  it('a DNSKEY carries its key tag as dnssec-dsfromkey computes it (the DS of this key names tag 61212)', async () => {
    const d = (await t.json('/api/dns/query/types.test?type=DNSKEY')).body.data
    expect(d.records[0]).toMatchObject({ key_tag: 61212, zone_key: true, secure_entry_point: true, revoked: false })
  })

  it('NODATA and NXDOMAIN for any type, as for A', async () => {
    expect((await t.json('/api/dns/query/types.test?type=SRV')).body.data).toMatchObject({ status: 'nodata', records: [], ttl: 120 })
    expect((await t.json('/api/dns/query/nothing.types.test?type=TLSA')).body.data).toMatchObject({ status: 'nxdomain', rcode: 'NXDOMAIN', records: [] })
  })
})

describe('the per-type endpoints (/api/dns/<type>) answer as the query endpoint does', () => {
  const cases: Array<[string, string, string]> = [
    ['srv', 'SRV', '_sip._tcp.types.test'],
    ['caa', 'CAA', 'types.test'],
    ['tlsa', 'TLSA', '_443._tcp.www.types.test'],
    ['https', 'HTTPS', 'types.test'],
    ['ds', 'DS', 'child.types.test'],
    ['dnskey', 'DNSKEY', 'types.test'],
    ['soa', 'SOA', 'types.test'],
    ['ptr', 'PTR', '1.2.0.192.in-addr.arpa'],
  ]
  for (const [endpoint, type, name] of cases) {
    it(`/api/dns/${endpoint}/${name}`, async () => {
      const res = await t.json(`/api/dns/${endpoint}/${name}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.meta.endpoint).toBe(`dns.${endpoint}`)
      expect(res.body.data.type).toBe(type)
      expect((res.body.data.records as Rec[]).map(PRESENT[type]!).sort()).toEqual(digRdata(name, type))
    })
  }

  it('ptr takes an IP address and asks for its reverse name (dig -x builds the same)', async () => {
    for (const [ip, reverse] of [
      ['192.0.2.2', '2.2.0.192.in-addr.arpa'],
      ['2001:db8::1', '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa'],
    ] as const) {
      const d = (await t.json(`/api/dns/ptr/${ip}`)).body.data
      expect(d.domain).toBe(reverse)
      expect((d.records as Rec[]).map(PRESENT.PTR!).sort()).toEqual(digRdata(reverse, 'PTR'))
    }
  })
})

describe('dnssec=true: the verdict on the asked RRset is delv\'s', () => {
  // [name, type, verdict]: positive answers, NODATA proofs, DS judged in the parent
  // (wrong-ds.test's DS RRset is validly signed by test.; only the child's keys do
  // not match it), DNSKEY RRsets, an unsigned zone and a broken signature.
  const cases: Array<[string, string, 'secure' | 'insecure' | 'bogus']> = [
    ['www.rsasha256.test', 'AAAA', 'secure'],
    ['txt-only.ecdsap256.test', 'TXT', 'secure'],
    ['txt-only.ecdsap256.test', 'MX', 'secure'],
    ['www.nsec3.test', 'TLSA', 'secure'],
    ['rsasha256.test', 'DS', 'secure'],
    ['ecdsap256.test', 'DNSKEY', 'secure'],
    ['wrong-ds.test', 'DS', 'secure'],
    ['wrong-ds.test', 'DNSKEY', 'bogus'],
    ['www.unsigned.test', 'A', 'insecure'],
    ['unsigned.test', 'DS', 'secure'],
    ['www.bad-sig.test', 'A', 'bogus'],
  ]
  for (const [name, type, verdict] of cases) {
    it(`${name} ${type}: ${verdict}`, async () => {
      const res = await ts.json(`/api/dns/query/${name}?type=${type}&dnssec=true`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const d = res.body.data
      expect(d.dnssec.status, d.dnssec.message).toBe(verdict)
      expect(d.dnssec.url).toBe(`/api/dns/dnssec/${name}?type=${type}`)
      const fromDelv = delv(signed, ROOT_ANCHOR_CONF, name, type)
      expect(fromDelv.status, fromDelv.lines.join('\n')).toBe(verdict)
      // The same verdict as /api/dns/dnssec for the type (one cache entry serves both).
      const full = await ts.json(`/api/dns/dnssec/${name}?type=${type}`)
      expect(full.body.meta.cache).toBe('hit')
      expect(full.body.data).toMatchObject({ type, status: verdict })
    })
  }
})
