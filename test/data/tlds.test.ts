import { getPublicSuffix } from 'tldts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ianaTlds, pslTopLevel } from '../../plugins/data/tlds.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t.close())

interface Tld {
  tld: string
  unicode: string
  type: string
  idn: boolean
  country: string | null
  in_psl: boolean
  in_root_zone: boolean
}

describe('GET /api/data/tlds', () => {
  it('types every TLD by the documented rules and names its sources', async () => {
    const res = await t.json('/api/data/tlds')
    expect(res.status).toBe(200)
    const d = res.body.data
    const by = new Map((d.tlds as Tld[]).map((r) => [r.tld, r]))
    expect(by.get('com')).toEqual({ tld: 'com', unicode: 'com', type: 'generic', idn: false, country: null, in_psl: true, in_root_zone: true })
    expect(by.get('uk')).toEqual({ tld: 'uk', unicode: 'uk', type: 'country-code', idn: false, country: 'UK', in_psl: true, in_root_zone: true })
    expect(by.get('xn--p1ai')).toEqual({ tld: 'xn--p1ai', unicode: 'рф', type: 'country-code', idn: true, country: 'RU', in_psl: true, in_root_zone: true })
    expect(by.get('xn--fiqs8s')).toMatchObject({ unicode: '中国', type: 'country-code', country: 'CN' })
    expect(by.get('arpa')).toMatchObject({ type: 'infrastructure' })
    expect(by.get('museum')).toMatchObject({ type: 'sponsored' })
    expect(by.get('gov')).toMatchObject({ type: 'sponsored' })
    expect(by.get('biz')).toMatchObject({ type: 'generic-restricted' })
    expect(by.get('xn--zckzah')).toEqual({ tld: 'xn--zckzah', unicode: 'テスト', type: 'test', idn: true, country: null, in_psl: false, in_root_zone: false })
    expect(by.get('onion')).toMatchObject({ type: 'special-use', in_root_zone: false })
    expect(by.get('xn--11b4c3d')).toMatchObject({ unicode: 'कॉम', type: 'generic' })
    expect((d.tlds as Tld[]).filter((r) => r.type === 'test')).toHaveLength(11)
    expect((d.tlds as Tld[]).filter((r) => r.type === 'sponsored')).toHaveLength(14)
    const counts: Record<string, number> = {}
    for (const r of d.tlds as Tld[]) counts[r.type] = (counts[r.type] ?? 0) + 1
    expect(d.counts).toEqual(counts)
    expect(d.classification).toHaveLength(7)
    expect(d.sources.map((s: { url: string }) => s.url)).toEqual([
      'https://publicsuffix.org/list/public_suffix_list.dat',
      'https://data.iana.org/TLD/tlds-alpha-by-domain.txt',
      'https://www.iana.org/domains/root/db',
    ])
    expect(d.sources[1].version).toBe('2026051600')
  })

  it('holds every TLD of the root zone list and every top-level label of the PSL, each once', async () => {
    const rows = (await t.json('/api/data/tlds')).body.data.tlds as Tld[]
    const names = rows.map((r) => r.tld)
    expect(new Set(names).size).toBe(names.length)
    expect([...names].sort()).toEqual(names)
    const iana = ianaTlds().tlds
    const psl = pslTopLevel()
    for (const tld of iana) expect(rows.find((r) => r.tld === tld)?.in_root_zone, tld).toBe(true)
    for (const tld of psl) expect(rows.find((r) => r.tld === tld)?.in_psl, tld).toBe(true)
    expect(iana.size).toBeGreaterThan(1400)
    // What tldts itself says: a PSL top-level label is its own public suffix.
    for (const tld of ['com', 'uk', 'xn--p1ai', 'museum']) expect(getPublicSuffix(`example.${tld}`)).toBe(tld)
    // Every two-letter ASCII TLD is a ccTLD; IDN ccTLDs carry their country.
    for (const r of rows) {
      if (/^[a-z]{2}$/.test(r.tld)) expect(r).toMatchObject({ type: 'country-code', country: r.tld.toUpperCase() })
      if (r.type === 'country-code') expect(r.country).toMatch(/^[A-Z]{2}$/)
      expect(r.idn).toBe(r.tld.startsWith('xn--'))
    }
  })

  it('filters by type, pages, and is a CSV table', async () => {
    const sponsored = await t.json('/api/data/tlds?type=sponsored')
    expect(sponsored.body.data.tlds.map((r: Tld) => r.tld)).toEqual(['aero', 'asia', 'cat', 'coop', 'edu', 'gov', 'int', 'jobs', 'mil', 'museum', 'post', 'tel', 'travel', 'xxx'])
    const page = await t.json('/api/data/tlds?type=country-code&limit=3&offset=1')
    expect(page.body.data.tlds.map((r: Tld) => r.tld)).toEqual(['ad', 'ae', 'af'])
    const bad = await t.json('/api/data/tlds?type=vanity')
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.param).toBe('type')
    const csv = (await (await t.request('/api/data/tlds?type=infrastructure&format=csv&fields=tlds')).text()).trim().split('\r\n')
    expect(csv).toEqual(['tlds.tld,tlds.unicode,tlds.type,tlds.idn,tlds.country,tlds.in_psl,tlds.in_root_zone', 'arpa,arpa,infrastructure,false,,true,true'])
  })
})
