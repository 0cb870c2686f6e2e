import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatIpv4Number, formatIpv6 } from '../../runtime/ip/format.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t.close())

const TWO_128 = 1n << 128n

const page = async (path: string) => {
  const res = await t.json(path)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}

/** Every address of an IPv4 block, computed here, independently of the service. */
function ipv4Block(first: number, size: number): string[] {
  return Array.from({ length: size }, (_, i) => formatIpv4Number(first + i))
}

describe('GET /api/cidr/expand/{cidr}', () => {
  it('lists a small block whole, with exact pagination in meta', async () => {
    const body = await page('/api/cidr/expand/192.0.2.0%2F28')
    expect(body.data).toEqual({
      cidr: '192.0.2.0/28',
      version: 4,
      total: '16',
      offset: '0',
      limit: 256,
      count: 16,
      addresses: ipv4Block(0xc0000200, 16),
      next_offset: null,
    })
    expect(body.meta.pagination).toEqual({ total: '16', limit: 256, offset: '0' })
  })

  it('page k of a block is the k-th slice of the whole list, and the pages end with next_offset null', async () => {
    const all = ipv4Block(0x0a000000, 1024)
    const pages: string[][] = []
    let offset: string | null = '0'
    for (let k = 0; offset !== null; k++) {
      const body = await page(`/api/cidr/expand/10.0.0.0/22?limit=100&offset=${offset}`)
      expect(body.data.offset).toBe(String(k * 100))
      expect(body.data.addresses).toEqual(all.slice(k * 100, (k + 1) * 100))
      expect(body.meta.pagination).toEqual({ total: '1024', limit: 100, offset: String(k * 100) })
      pages.push(body.data.addresses)
      offset = body.data.next_offset
    }
    expect(pages).toHaveLength(11)
    expect(pages.flat()).toEqual(all)
  })

  it('host bits in the path are cleared: the block is expanded from its network', async () => {
    const body = await page('/api/cidr/expand/10.1.2.3%2F30')
    expect(body.data.cidr).toBe('10.1.2.0/30')
    expect(body.data.addresses).toEqual(['10.1.2.0', '10.1.2.1', '10.1.2.2', '10.1.2.3'])
  })

  it('pages IPv6 ::/0 at an offset near 2^128 without building the block; offsets and totals are exact strings', async () => {
    const offset = (TWO_128 - 3n).toString()
    const body = await page(`/api/cidr/expand/::%2F0?offset=${offset}&limit=10`)
    expect(body.data).toEqual({
      cidr: '::/0',
      version: 6,
      total: TWO_128.toString(),
      offset,
      limit: 10,
      count: 3,
      addresses: ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffd', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
      next_offset: null,
    })
    expect(body.meta.pagination).toEqual({ total: '340282366920938463463374607431768211456', limit: 10, offset })
  })

  it('an offset just past 2^53 lands on the exact address (no floating point on the way)', async () => {
    const offset = (2n ** 53n + 1n).toString()
    const body = await page(`/api/cidr/expand/2001:db8::/64?offset=${offset}&limit=2`)
    const network = 0x20010db8n << 96n
    expect(body.data.addresses).toEqual([formatIpv6(network + 2n ** 53n + 1n), formatIpv6(network + 2n ** 53n + 2n)])
    expect(body.data.addresses[0]).toBe('2001:db8::20:0:0:1')
    expect(body.data.next_offset).toBe((2n ** 53n + 3n).toString())
  })

  it('an offset at or past the end is an empty last page, not an error', async () => {
    for (const offset of ['16', '17', '99999999999999999999999999999999999999']) {
      const body = await page(`/api/cidr/expand/192.0.2.0%2F28?offset=${offset}`)
      expect(body.data).toMatchObject({ count: 0, addresses: [], next_offset: null, total: '16', offset })
    }
  })

  it('limit defaults to 256 and goes up to 4096; IPv6 pages count from the network', async () => {
    const def = await page('/api/cidr/expand/2001:db8::%2F48')
    expect(def.data.count).toBe(256)
    expect(def.data.addresses[0]).toBe('2001:db8::')
    expect(def.data.addresses[255]).toBe('2001:db8::ff')
    expect(def.data.next_offset).toBe('256')
    const max = await page('/api/cidr/expand/10.0.0.0%2F8?limit=4096&offset=4096')
    expect(max.data.count).toBe(4096)
    expect(max.data.addresses[0]).toBe('10.0.16.0')
    expect(max.data.addresses[4095]).toBe('10.0.31.255')
  })

  it.each([
    ['limit=0', 'limit', 'must be at least 1'],
    ['limit=4097', 'limit', 'must be at most 4096'],
    ['limit=ten', 'limit', 'must be a whole number from 1 to 4096'],
    ['offset=-1', 'offset', 'must be a whole decimal number >= 0'],
    ['offset=1e3', 'offset', 'must be a whole decimal number >= 0'],
    ['offset=' + '9'.repeat(41), 'offset', 'at most 40 digits'],
  ])('%s is 400 naming %s', async (query, param, message) => {
    const res = await t.json(`/api/cidr/expand/10.0.0.0%2F24?${query}`)
    expect(res.status).toBe(400)
    expect(res.body.error.details.param).toBe(param)
    expect(res.body.error.message).toContain(message)
  })

  it('bad blocks are 400 with the parser reason', async () => {
    const res = await t.json('/api/cidr/expand/10.0.0.0%2F33')
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe('Invalid "cidr": the prefix length 33 is out of range; IPv4 prefix lengths are 0-32')
  })

  it('csv: one address per row, the pagination in headers', async () => {
    const res = await t.request('/api/cidr/expand/192.0.2.0%2F30?format=csv')
    // The answer's other values are on every row (next_offset null: empty).
    expect((await res.text()).trim().split('\r\n')).toEqual([
      'cidr,version,total,offset,limit,count,addresses,next_offset',
      ...['192.0.2.0', '192.0.2.1', '192.0.2.2', '192.0.2.3'].map((a) => `192.0.2.0/30,4,4,0,256,4,${a},`),
    ])
    expect(res.headers.get('x-total-count')).toBe('4')
  })
})
