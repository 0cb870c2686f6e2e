import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { BindServer } from '../support/bind-server.ts'
import { bindAvailable, dig, digReverse, startBind } from '../support/bind-server.ts'
import { REVERSE6_ZONE, REVERSE_ZONE, SERVICE_ZONE } from '../support/loopback-dns.ts'

// Interop with BIND 9 (installed by .ci/run): every record type the service
// answers equals what dig gets from the same named.

let named: BindServer
let t: TestApp

beforeAll(async () => {
  if (!bindAvailable()) throw new Error('BIND 9 (named) and dig are needed: apt-get install bind9 bind9-dnsutils (.ci/run does this)')
  named = await startBind({ 'infralens.test': SERVICE_ZONE, '2.0.192.in-addr.arpa': REVERSE_ZONE, '8.b.d.0.1.0.0.2.ip6.arpa': REVERSE6_ZONE })
  t = await startTestApp({
    INFRALENS_DNS_RESOLVERS: `${named.host}:${named.port}`,
    INFRALENS_DNS_TIMEOUT_MS: '1000',
    INFRALENS_RATE_LIMITS: 'anonymous=100000',
  })
}, 30_000)
afterAll(async () => {
  await t?.close()
  await named?.close()
})

/** dig's rdata for a type, in the same form the service's record fields give. */
function digValues(name: string, type: string): string[] {
  return dig(named, name, type)
    .map((line) => line.split(/\s+/))
    .filter((f) => f[3] === type)
    .map((f) => f.slice(4).join(' '))
    .sort()
}

function digTtls(name: string, type: string): number[] {
  return dig(named, name, type)
    .map((line) => line.split(/\s+/))
    .filter((f) => f[3] === type)
    .map((f) => Number(f[1]))
}

const serviceValue: Record<string, (r: Record<string, unknown>) => string> = {
  A: (r) => String(r.address),
  AAAA: (r) => String(r.address),
  MX: (r) => `${String(r.preference)} ${String(r.exchange)}.`,
  NS: (r) => `${String(r.target)}.`,
  CNAME: (r) => `${String(r.target)}.`,
  TXT: (r) => (r.strings as string[]).map((s) => JSON.stringify(s)).join(' '),
  SOA: (r) => `${String(r.mname)}. ${String(r.rname)}. ${String(r.serial)} ${String(r.refresh)} ${String(r.retry)} ${String(r.expire)} ${String(r.minimum)}`,
  CAA: (r) => `${String(r.flags)} ${String(r.tag)} ${JSON.stringify(r.value)}`,
}

describe('the service and dig agree on what BIND serves', () => {
  const cases: Array<[string, string]> = [
    ['a', 'infralens.test'],
    ['aaaa', 'infralens.test'],
    ['mx', 'infralens.test'],
    ['ns', 'infralens.test'],
    ['txt', 'infralens.test'],
    ['cname', 'www.infralens.test'],
    ['a', 'host.infralens.test'],
    ['aaaa', 'host.infralens.test'],
  ]
  for (const [endpoint, name] of cases) {
    it(`${endpoint.toUpperCase()} ${name}`, async () => {
      const type = endpoint.toUpperCase()
      const res = await t.json(`/api/dns/${endpoint}/${name}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const records = res.body.data.records as Array<Record<string, unknown>>
      expect(records.map(serviceValue[type]!).sort()).toEqual(digValues(name, type))
      expect(records.map((r) => r.ttl).sort()).toEqual(digTtls(name, type).sort())
      expect(res.body.data.rcode).toBe('NOERROR')
    })
  }

  it('lookup: SOA and CAA too', async () => {
    const d = (await t.json('/api/dns/lookup/infralens.test')).body.data
    for (const type of ['SOA', 'CAA', 'A', 'AAAA', 'MX', 'NS', 'TXT']) {
      const mine = (d.records as Array<Record<string, unknown>>).filter((r) => r.type === type).map(serviceValue[type]!).sort()
      expect(mine, type).toEqual(digValues('infralens.test', type))
    }
  })

  it('a CNAME chain: BIND answers the chain in one response, the service shows it', async () => {
    const d = (await t.json('/api/dns/a/www.infralens.test')).body.data
    const digChain = dig(named, 'www.infralens.test', 'A').map((l) => l.split(/\s+/)).filter((f) => f[3] === 'CNAME').map((f) => `${f[0]} ${f[4]}`)
    expect(d.chain.map((r: { name: string; target: string }) => `${r.name}. ${r.target}.`)).toEqual(digChain)
    expect(d.records.map((r: { address: string }) => r.address).sort()).toEqual(digValues('infralens.test', 'A'))
  })

  it('NXDOMAIN and NODATA as BIND says', async () => {
    expect((await t.json('/api/dns/a/nothing-here.infralens.test')).body.data).toMatchObject({ rcode: 'NXDOMAIN', status: 'nxdomain', ttl: 120 })
    expect((await t.json('/api/dns/a/only-v6.infralens.test')).body.data).toMatchObject({ rcode: 'NOERROR', status: 'nodata', ttl: 120 })
  })
})

describe('reverse DNS: the service and dig -x agree', () => {
  // one PTR, two PTRs (one a liar), a PTR to a name that does not exist, and IPv6
  for (const ip of ['192.0.2.1', '192.0.2.2', '192.0.2.3', '2001:db8::1']) {
    it(`PTR ${ip}`, async () => {
      const res = await t.json(`/api/reverse-dns/${ip}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const d = res.body.data
      const digPtr = digReverse(named, ip)
        .map((line) => line.split(/\s+/))
        .filter((f) => f[3] === 'PTR')
      expect(digPtr.length).toBeGreaterThan(0)
      expect(`${d.reverse_name}.`).toBe(digPtr[0]![0])
      const mine = d.ptr as Array<{ name: string; ttl: number; forward_confirmed: boolean; forward_addresses: string[] }>
      expect(mine.map((p) => `${p.name}. ${p.ttl}`).sort()).toEqual(digPtr.map((f) => `${f[4]} ${f[1]}`).sort())
      // forward confirmation against what dig gets for each PTR name
      const forwardType = ip.includes(':') ? 'AAAA' : 'A'
      for (const p of mine) {
        const forward = digValues(p.name, forwardType)
        expect([...p.forward_addresses].sort(), p.name).toEqual(forward)
        expect(p.forward_confirmed, p.name).toBe(forward.includes(ip))
      }
      expect(d.fcrdns).toBe(mine.some((p) => p.forward_confirmed))
    })
  }

  it('an address without PTR: dig -x finds nothing, the service says NXDOMAIN', async () => {
    expect(digReverse(named, '192.0.2.200')).toEqual([])
    expect((await t.json('/api/reverse-dns/192.0.2.200')).body.data).toMatchObject({ rcode: 'NXDOMAIN', status: 'nxdomain', ptr: [], fcrdns: false })
  })
})
