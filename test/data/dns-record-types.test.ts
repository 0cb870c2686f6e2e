import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TYPE_CODES } from '../../runtime/net/dns/dns-types.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t.close())

interface TypeRow {
  type: string
  value: number
  meaning: string
  kind: string
  status: string
  references: string[]
}

const dnsPacketTypes = createRequire(import.meta.url)('dns-packet/types.js') as { toString(n: number): string }

describe('GET /api/data/dns-record-types', () => {
  it('lists the IANA RR TYPEs with numbers, meaning, kind, status and RFCs, and names its source', async () => {
    const res = await t.json('/api/data/dns-record-types')
    expect(res.status).toBe(200)
    const d = res.body.data
    const byName = new Map((d.types as TypeRow[]).map((r) => [r.type, r]))
    expect(byName.get('A')).toEqual({ type: 'A', value: 1, meaning: 'a host address', kind: 'data', status: 'active', references: ['RFC 1035'] })
    expect(byName.get('AAAA')).toMatchObject({ value: 28, references: ['RFC 3596'] })
    expect(byName.get('HTTPS')).toMatchObject({ value: 65, references: ['RFC 9460'] })
    expect(byName.get('CAA')).toMatchObject({ value: 257, references: ['RFC 8659'] })
    expect(byName.get('OPT')).toMatchObject({ value: 41, kind: 'meta' })
    expect(byName.get('*')).toMatchObject({ value: 255, kind: 'query' })
    expect(byName.get('AXFR')).toMatchObject({ value: 252, kind: 'query' })
    expect(byName.get('MD')).toMatchObject({ value: 3, status: 'obsolete' })
    expect(byName.get('DLV')).toMatchObject({ value: 32769, status: 'obsolete' })
    expect(d.count).toBe(d.types.length)
    expect(new Set(d.types.map((r: TypeRow) => r.value)).size).toBe(d.types.length)
    expect(new Set(d.types.map((r: TypeRow) => r.type)).size).toBe(d.types.length)
    expect(d.source).toMatchObject({ url: 'https://www.iana.org/assignments/dns-parameters/dns-parameters.xhtml#dns-parameters-4' })
    expect(d.ranges).toContainEqual({ from: 65280, to: 65534, assignment: 'Private use (RFC 6895)' })
  })

  it('every type dns-packet and the service DNS client know has the same number here', async () => {
    const types = (await t.json('/api/data/dns-record-types')).body.data.types as TypeRow[]
    const byValue = new Map(types.map((r) => [r.value, r.type]))
    let known = 0
    for (let n = 0; n <= 65535; n++) {
      const name = dnsPacketTypes.toString(n)
      if (name.startsWith('UNKNOWN_')) continue
      known++
      expect(byValue.get(n), `dns-packet ${name}=${n}`).toBe(name === 'ANY' ? '*' : name)
    }
    expect(known).toBeGreaterThanOrEqual(44)
    for (const [name, value] of Object.entries(TYPE_CODES)) {
      expect(byValue.get(value), `dns client ${name}=${value}`).toBe(name === 'ANY' ? '*' : name)
    }
    // Unassigned ranges hold no listed type.
    const ranges = (await t.json('/api/data/dns-record-types')).body.data.ranges as Array<{ from: number; to: number }>
    for (const r of types) expect(ranges.some((g) => g.from <= r.value && r.value <= g.to), r.type).toBe(false)
  })

  it('sorts and pages: the highest value first', async () => {
    const res = await t.json('/api/data/dns-record-types?sort=value&order=desc&limit=2')
    expect(res.body.data.types.map((r: TypeRow) => r.type)).toEqual(['DLV', 'TA'])
    const csv = await (await t.request('/api/data/dns-record-types?format=csv&fields=types.type,types.value')).text()
    expect(csv.split('\r\n').slice(0, 3)).toEqual(['types.type,types.value', 'A,1', 'NS,2'])
  })
})
