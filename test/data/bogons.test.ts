import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bogonCheck } from '../../runtime/ip/bogon.ts'
import { hostMask } from '../../runtime/ip/bits.ts'
import { parseCidr } from '../../runtime/ip/parse-cidr.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t.close())

interface Row {
  prefix: string
  version: 4 | 6
  name: string
  class: string
  registry: string
  bogon: boolean | null
  reason: string
  rfcs: string[]
}

const range = (prefix: string) => {
  const c = parseCidr(prefix)
  if (!c.ok) throw new Error(prefix)
  return { version: c.value.version, start: c.value.network, end: c.value.network | hostMask(c.value.version, c.value.prefixLength), len: c.value.prefixLength }
}

describe('GET /api/data/bogons', () => {
  it('lists the special-purpose and reserved prefixes of both families with verdicts and sources', async () => {
    const res = await t.json('/api/data/bogons')
    expect(res.status).toBe(200)
    const d = res.body.data
    const rows = d.prefixes as Row[]
    const find = (prefix: string) => rows.find((r) => r.prefix === prefix)
    expect(find('10.0.0.0/8')).toEqual({
      prefix: '10.0.0.0/8',
      version: 4,
      name: 'Private-Use',
      class: 'private',
      registry: 'special-purpose',
      bogon: true,
      reason: 'not globally reachable (RFC 1918)',
      rfcs: ['RFC 1918'],
    })
    expect(find('100.64.0.0/10')).toMatchObject({ class: 'cgnat', bogon: true })
    expect(find('192.0.0.9/32')).toMatchObject({ class: 'anycast', bogon: false })
    expect(find('2002::/16')).toMatchObject({ class: '6to4', bogon: null })
    expect(find('2001::/32')).toMatchObject({ class: 'teredo', bogon: null })
    expect(find('64:ff9b::/96')).toMatchObject({ class: 'nat64', bogon: null })
    expect(find('192.88.99.0/24')).toMatchObject({ bogon: null, reason: expect.stringContaining('terminated') })
    // The sixteen multicast /8s of the address-space registry, as one block.
    expect(find('224.0.0.0/4')).toMatchObject({ registry: 'address-space', class: 'multicast', bogon: true, name: 'Multicast' })
    expect(rows.filter((r) => r.prefix.startsWith('22') && r.registry === 'address-space')).toHaveLength(1)
    expect(find('ff00::/8')).toMatchObject({ registry: 'address-space', class: 'multicast', bogon: true })
    expect(find('fec0::/10')).toMatchObject({ registry: 'address-space', class: 'reserved', bogon: true })
    // Blocks a special-purpose entry states are not repeated from the address-space registry.
    expect(rows.filter((r) => r.prefix === '127.0.0.0/8')).toHaveLength(1)
    expect(find('2000::/3')).toBeUndefined()
    expect(d.counts).toEqual({
      ipv4: rows.filter((r) => r.version === 4).length,
      ipv6: rows.filter((r) => r.version === 6).length,
      bogon: rows.filter((r) => r.bogon === true).length,
    })
    expect(d.sources.map((s: { url: string }) => s.url)).toEqual([
      'https://www.iana.org/assignments/iana-ipv4-special-registry/iana-ipv4-special-registry.xml',
      'https://www.iana.org/assignments/iana-ipv6-special-registry/iana-ipv6-special-registry.xml',
      'https://www.iana.org/assignments/ipv4-address-space/ipv4-address-space.xml',
      'https://www.iana.org/assignments/ipv6-address-space/ipv6-address-space.xml',
    ])
    expect(d.sources.every((s: { version: string }) => /^\d{4}-\d{2}-\d{2}$/.test(s.version))).toBe(true)
  })

  it('is in address order, IPv4 first, and each verdict is what /api/ip gives the block\'s first address', async () => {
    const rows = (await t.json('/api/data/bogons')).body.data.prefixes as Row[]
    const ranges = rows.map((r) => range(r.prefix))
    for (let i = 1; i < ranges.length; i++) {
      const [a, b] = [ranges[i - 1]!, ranges[i]!]
      expect(a.version < b.version || (a.version === b.version && (a.start < b.start || (a.start === b.start && a.len <= b.len))), rows[i]!.prefix).toBe(true)
    }
    for (const [i, row] of rows.entries()) {
      const r = ranges[i]!
      // The most specific listed block holding the first address decides it.
      const decider = rows
        .map((x, j) => ({ x, rr: ranges[j]! }))
        .filter(({ rr }) => rr.version === r.version && rr.start <= r.start && r.start <= rr.end)
        .sort((p, q) => q.rr.len - p.rr.len)[0]!.x
      if (decider.bogon === null) continue
      expect(bogonCheck({ version: r.version, value: r.start }).bogon, `${row.prefix} via ${decider.prefix}`).toBe(decider.bogon)
    }
  })

  it('sorts, pages and serializes as a CSV table', async () => {
    const page = await t.json('/api/data/bogons?sort=prefix&limit=2&offset=1')
    expect(page.body.data.prefixes).toHaveLength(2)
    expect(page.body.meta.pagination).toEqual({ total: page.body.data.counts.ipv4 + page.body.data.counts.ipv6, limit: 2, offset: 1 })
    const csv = await t.request('/api/data/bogons?format=csv&fields=prefixes')
    const lines = (await csv.text()).trim().split('\r\n')
    expect(lines[0]).toBe('prefixes.prefix,prefixes.version,prefixes.name,prefixes.class,prefixes.registry,prefixes.bogon,prefixes.reason,prefixes.rfcs')
    expect(lines).toContain('10.0.0.0/8,4,Private-Use,private,special-purpose,true,not globally reachable (RFC 1918),"[""RFC 1918""]"')
  })
})
