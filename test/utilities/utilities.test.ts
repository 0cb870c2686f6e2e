import { createHash } from 'node:crypto'
import { decodeTime } from 'ulid'
import { validate as uuidValidate, version as uuidVersion } from 'uuid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t.close())

const ok = async (path: string) => {
  const res = await t.json(path)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}
const bad = async (path: string, param: string) => {
  const res = await t.json(path)
  expect(res.status, JSON.stringify(res.body)).toBe(400)
  expect(res.body.error.details.param).toBe(param)
  return res.body.error.message as string
}

describe('uuid', () => {
  it('version 4 by default, 7 on request', async () => {
    const v4 = await ok('/api/uuid')
    expect(uuidValidate(v4.uuid)).toBe(true)
    expect(uuidVersion(v4.uuid)).toBe(4)
    expect(v4.version).toBe(4)
    const v7 = await ok('/api/uuid?version=7')
    expect(uuidVersion(v7.uuid)).toBe(7)
    // v7 carries the time in its first 48 bits
    const ms = parseInt(v7.uuid.replace(/-/g, '').slice(0, 12), 16)
    expect(Math.abs(ms - Date.now())).toBeLessThan(5000)
  })

  it('bad version is 400', async () => {
    expect(await bad('/api/uuid?version=5', 'version')).toContain('4, 7')
  })

  it('bulk: count 1..1000, all unique, v7 strictly increasing', async () => {
    const data = await ok('/api/uuid/bulk?count=1000&version=7')
    expect(data.count).toBe(1000)
    expect(data.uuids).toHaveLength(1000)
    expect(new Set(data.uuids).size).toBe(1000)
    expect([...data.uuids].sort()).toEqual(data.uuids)
    expect((await ok('/api/uuid/bulk')).uuids).toHaveLength(10)
    expect((await ok('/api/uuid/bulk?count=1')).uuids).toHaveLength(1)
  })

  it('bulk count out of range or not a number is 400', async () => {
    for (const c of ['0', '1001', 'ten', '5.5', '-3', '']) await bad(`/api/uuid/bulk?count=${c}`, 'count')
  })

  it('bulk works with format and compact (the contract example)', async () => {
    const res = await t.request('/api/uuid/bulk?count=3&format=csv&compact=true')
    const lines = (await res.text()).trim().split('\r\n')
    // Every value of data is in the CSV: version and count repeated on each uuid's row.
    expect(lines[0]).toBe('version,count,uuids')
    expect(lines.slice(1)).toHaveLength(3)
    expect(lines.slice(1).every((l) => l.startsWith('4,3,') && uuidValidate(l.slice(4)))).toBe(true)
    const json = await t.json('/api/uuid/bulk?count=3&compact=true')
    expect(Object.keys(json.body)).toEqual(['success', 'data', 'timestamp', 'request_id'])
  })
})

describe('ulid', () => {
  it('one ULID with its timestamp', async () => {
    const data = await ok('/api/ulid')
    expect(data.ulid).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
    expect(decodeTime(data.ulid)).toBe(data.time_ms)
    expect(new Date(data.timestamp).getTime()).toBe(data.time_ms)
  })

  it('bulk ULIDs are monotonic', async () => {
    const data = await ok('/api/ulid/bulk?count=500')
    expect(data.ulids).toHaveLength(500)
    expect([...data.ulids].sort()).toEqual(data.ulids)
    expect(new Set(data.ulids).size).toBe(500)
    await bad('/api/ulid/bulk?count=2000', 'count')
  })
})

describe('hash', () => {
  const inputs = ['', 'hello', 'üñîçødé ✓', 'a'.repeat(1000)]
  for (const algorithm of ['md5', 'sha1', 'sha256', 'sha512', 'sha3-256', 'blake2b512', 'ripemd160']) {
    it(`${algorithm} matches node:crypto`, async () => {
      for (const input of inputs) {
        const data = await ok(`/api/hash/${algorithm}?input=${encodeURIComponent(input)}`)
        expect(data.digest).toBe(createHash(algorithm).update(input, 'utf8').digest('hex'))
        expect(data.input_bytes).toBe(Buffer.byteLength(input))
      }
    })
  }

  it('known vectors, SHA-256 spelling and base64 output', async () => {
    expect((await ok('/api/hash/SHA-256?input=abc')).digest).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect((await ok('/api/hash/md5?input=')).digest).toBe('d41d8cd98f00b204e9800998ecf8427e')
    expect((await ok('/api/hash/sha1?input=abc&encoding=base64')).digest).toBe('qZk+NkcGgWq6PiVxeFDCbJzQ2J0=')
    const data = await ok('/api/hash/sha512?input=x')
    expect(data.bits).toBe(512)
  })

  it('hashes bytes given as hex or base64', async () => {
    expect((await ok('/api/hash/sha256?input=616263&input_encoding=hex')).digest).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
    expect((await ok('/api/hash/sha256?input=YWJj&input_encoding=base64')).digest).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
    expect(await bad('/api/hash/sha256?input=abc&input_encoding=hex', 'input')).toMatch(/hex/)
  })

  it('unknown algorithm and missing input are clear 400s', async () => {
    expect(await bad('/api/hash/sha999?input=a', 'algorithm')).toContain('sha256')
    expect(await bad('/api/hash/md5', 'input')).toBe('Missing required parameter "input".')
    await bad('/api/hash/md5?input=a&encoding=base32', 'encoding')
  })
})

describe('base64', () => {
  it('encodes text, standard and URL-safe', async () => {
    expect((await ok('/api/base64/encode?input=hello%20world')).output).toBe('aGVsbG8gd29ybGQ=')
    expect((await ok(`/api/base64/encode?input=${encodeURIComponent('??>>')}&variant=url`)).output).toBe('Pz8-Pg')
    expect((await ok(`/api/base64/encode?input=${encodeURIComponent('??>>')}`)).output).toBe('Pz8+Pg==')
    expect((await ok('/api/base64/encode?input=ff00&input_encoding=hex')).output).toBe('/wA=')
  })

  it('decodes standard and URL-safe, padded or not', async () => {
    expect(await ok('/api/base64/decode?input=aGVsbG8gd29ybGQ%3D')).toEqual({ text: 'hello world', valid_utf8: true, hex: '68656c6c6f20776f726c64', bytes: 11, variant: 'standard' })
    expect((await ok('/api/base64/decode?input=aGVsbG8gd29ybGQ')).text).toBe('hello world')
    expect(await ok('/api/base64/decode?input=Pz8-Pg')).toMatchObject({ text: '??>>', variant: 'url' })
  })

  it('a byte order mark is text like any other: kept, not swallowed', async () => {
    // EF BB BF 61 = U+FEFF "a"
    expect(await ok('/api/base64/decode?input=77u%2FYQ%3D%3D')).toEqual({ text: '\uFEFFa', valid_utf8: true, hex: 'efbbbf61', bytes: 4, variant: 'standard' })
  })

  it('binary that is not UTF-8 comes back as hex with text null', async () => {
    expect(await ok('/api/base64/decode?input=%2F%2F8%3D')).toEqual({ text: null, valid_utf8: false, hex: 'ffff', bytes: 2, variant: 'standard' })
  })

  it('invalid base64 is a 400 that says why', async () => {
    expect(await bad('/api/base64/decode?input=abc%24', 'input')).toContain('"$"')
    expect(await bad('/api/base64/decode?input=a', 'input')).toMatch(/length/)
    expect(await bad('/api/base64/decode?input=ab%2B_', 'input')).toMatch(/mixes/)
    expect(await bad('/api/base64/decode?input=abc%3D%3D', 'input')).toMatch(/length/)
    await bad('/api/base64/decode', 'input')
  })
})

describe('myip in-process', () => {
  it('answers with a string ip and no caching', async () => {
    const res = await t.json('/api/myip')
    expect(res.status).toBe(200)
    expect(typeof res.body.data.ip).toBe('string')
    expect(res.headers.get('cache-control')).toBe('no-store')
  })
})

describe('health, ready, endpoints, usage', () => {
  it('health: status, version, uptime', async () => {
    const data = await ok('/api/health')
    expect(data.status).toBe('ok')
    expect(data.version).toBe('1.0.0')
    expect(data.uptime_seconds).toBeGreaterThanOrEqual(0)
    expect(data.node).toBe(process.version)
  })

  it('ready: all checks pass once the data is loaded', async () => {
    const data = await t.untilReady()
    expect(data.ready).toBe(true)
    expect(data.checks.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['ip-data', 'rpki-vrps']))
    expect(data.checks.every((c: { ok: boolean }) => c.ok)).toBe(true)
  })

  it('endpoints lists the registry with parameters', async () => {
    const data = (await ok('/api/endpoints')) as Array<Record<string, any>>
    const hash = data.find((e) => e.name === 'utilities.hash')!
    expect(hash).toMatchObject({ method: 'GET', path: '/api/hash/:algorithm', tag: 'utilities', cost: 1, cache_ttl_seconds: null })
    expect(hash.params.map((p: { name: string; in: string; required: boolean }) => [p.name, p.in, p.required])).toEqual([
      ['algorithm', 'path', true],
      ['input', 'query', true],
      ['input_encoding', 'query', false],
      ['encoding', 'query', false],
    ])
    expect(hash.params[0].enum).toContain('sha256')
  })
})
