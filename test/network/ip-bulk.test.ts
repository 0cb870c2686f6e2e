import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Server } from 'srvx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { ROOT } from '../../runtime/app.ts'
import { parseCidr } from '../../runtime/ip/parse-cidr.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import { listen } from '../../runtime/server.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { SLICE, STREAM_WINDOW } from '../../plugins/routing/ip-bulk.ts'

// POST /api/ip/bulk. Every answer is held to an independent source: the single
// GET /api/ip/{ip} answer of the same address (ASN, name, country, class, bogon:
// its own code path, tested against the data files in ip-endpoint.test.ts), the
// prefix worked out here with bigints from the range /api/ip reports, and the
// RPKI state by RFC 6811 read naively over the fixture VRP file the test app
// loads (test/fixtures/rpki/test-vrps.json). Addresses are documentation ranges
// or lookups in the bundled data: nothing here connects anywhere.

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=1000000' })
})
afterAll(() => t.close())

type Result = Record<string, any>

const post = (body: string, contentType = 'application/json', query = '', headers: Record<string, string> = {}) =>
  t.request(`/api/ip/bulk${query}`, { method: 'POST', headers: { 'content-type': contentType, ...headers }, body })
const bulk = async (body: string, contentType?: string, query?: string) => {
  const res = await post(body, contentType, query)
  const text = await res.text()
  expect(res.status, text.slice(0, 500)).toBe(200)
  return JSON.parse(text).data as { count: number; valid: number; invalid: number; results: Result[]; rpki: Result; data_source: Result }
}

/** A seeded generator (mulberry32), so a failure replays. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let x = Math.imul(a ^ (a >>> 15), 1 | a)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

// --- the oracles -------------------------------------------------------------

interface Vrp {
  version: 4 | 6
  network: bigint
  length: number
  maxLength: number
  asn: number
}
const VRPS: Vrp[] = (JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'rpki', 'test-vrps.json'), 'utf8')).roas as Array<Record<string, any>>).map((roa) => {
  const cidr = parseCidr(roa.prefix as string)
  if (!cidr.ok) throw new Error(roa.prefix as string)
  return { version: cidr.value.version, network: cidr.value.network, length: cidr.value.prefixLength, maxLength: roa.maxLength as number, asn: roa.asn as number }
})

/** RFC 6811 section 2, as written: covered by any VRP? matched by one? */
function rfc6811(version: 4 | 6, network: bigint, length: number, origin: number): 'valid' | 'invalid' | 'not-found' {
  const bits = version === 4 ? 32 : 128
  const covering = VRPS.filter((v) => v.version === version && v.length <= length && network >> BigInt(bits - v.length) === v.network >> BigInt(bits - v.length))
  if (covering.length === 0) return 'not-found'
  return covering.some((v) => v.asn !== 0 && v.asn === origin && length <= v.maxLength) ? 'valid' : 'invalid'
}

/** The largest CIDR block that holds `value` and stays inside [start, end]. */
function largestBlock(bits: number, value: bigint, start: bigint, end: bigint): [bigint, number] {
  for (let length = 0; length <= bits; length++) {
    const size = 1n << BigInt(bits - length)
    const network = (value / size) * size
    if (network >= start && network + size - 1n <= end) return [network, length]
  }
  throw new Error('unreachable: the /bits block always fits')
}

const valueOf = (text: string) => {
  const parsed = parseIp(text)
  if (!parsed.ok) throw new Error(`${text}: ${parsed.error.reason}`)
  return parsed.value
}

/** What the bulk answer must say about an address, from GET /api/ip/{ip}. */
async function expectedFor(text: string): Promise<Result> {
  const res = await t.json(`/api/ip/${encodeURIComponent(text.trim())}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  const d = res.body.data
  let prefix: string | null = null
  let rpki: string | null = null
  if (d.asn && d.asn.range) {
    const looked = valueOf(d.asn.looked_up)
    const bits = looked.version === 4 ? 32 : 128
    const [network, length] = largestBlock(bits, looked.value, valueOf(d.asn.range.start).value, valueOf(d.asn.range.end).value)
    prefix = `${looked.version === 4 ? bigToV4(network) : bigToV6(network)}/${length}`
    rpki = rfc6811(looked.version, network, length, d.asn.number)
  }
  return {
    ip: d.ip,
    version: d.version,
    asn: d.asn?.number ?? null,
    as_name: d.asn?.name ?? null,
    country: d.country?.code ?? null,
    class: d.classification.class,
    bogon: d.bogon.bogon,
    prefix,
    rpki,
  }
}

const bigToV4 = (n: bigint) => [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.')
/** RFC 5952 text by way of the service's parser is circular; URL's own formatter is not ours. */
const bigToV6 = (n: bigint) => {
  const groups = Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16))
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1)
}

// --- the tests ---------------------------------------------------------------

describe('POST /api/ip/bulk: each answer as /api/ip/{ip} gives it', () => {
  it('matches the single endpoint, the prefix arithmetic and RFC 6811 on fixed and random addresses', async () => {
    const rand = prng(22)
    const fixed = [
      '8.8.8.8', // arin VRP 8.8.8.0/24 AS15169: valid
      '193.0.0.1', // ripe VRP 193.0.0.0/21 AS3333
      '2001:67c:2e8::1',
      '1.1.1.1',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '2001:db8::1',
      '10.1.2.3',
      '127.0.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '0.0.0.0',
      '::',
      '::1',
      'fe80::1',
      '::ffff:8.8.4.4', // mapped: answered for 8.8.4.4
      '64:ff9b::808:808', // NAT64 well-known prefix
      '2002:808:808::1', // 6to4
      ' 9.9.9.9 ', // surrounding blanks, as /api/ip/{ip} reads them
      '2001:0DB8:0:0:0:0:0:1', // not canonical: answered as 2001:db8::1
    ]
    const random4 = Array.from({ length: 250 }, () => Array.from({ length: 4 }, () => Math.floor(rand() * 256)).join('.'))
    const random6 = Array.from({ length: 60 }, () => bigToV6((0x2000n + BigInt(Math.floor(rand() * 0x1000))) << 112n | BigInt(Math.floor(rand() * 2 ** 48)) << 64n))
    const list = [...fixed, ...random4, ...random6]
    const data = await bulk(JSON.stringify(list))
    expect(data.count).toBe(list.length)
    expect(data.invalid).toBe(0)
    expect(data.valid).toBe(list.length)
    expect(data.results).toHaveLength(list.length)
    for (let i = 0; i < list.length; i++) expect(data.results[i], list[i]).toEqual(await expectedFor(list[i]!))
    // The VRP file's facts come through: one valid, and the set described.
    expect(data.results[0]).toMatchObject({ asn: 15169, prefix: '8.8.8.0/24', rpki: 'valid' })
    expect(data.results[16]).toMatchObject({ ip: '::ffff:808:404', class: 'ipv4-mapped', bogon: true, asn: 15169 })
    expect(data.results[4]).toMatchObject({ class: 'documentation', bogon: true, asn: null, prefix: null, rpki: null })
    expect(data.rpki).toMatchObject({ loaded: true, vrps: 5, generated_at: '2025-06-11T08:00:00.000Z' })
    // Some of the random ones are covered by no VRP, none by an invalid one but where the oracle says so.
    expect(data.results.filter((r) => r.rpki === 'not-found').length).toBeGreaterThan(100)
    expect(data.data_source.asn).toMatch(/^@ip-location-db\/asn /)
  }, 120_000)
})

describe('a bad entry is its own error, never the request\'s', () => {
  it('answers every other entry, in order, and says what is wrong with each bad one', async () => {
    const data = await bulk(JSON.stringify(['192.0.2.1', '10.0.0.300', 5, null, 'example.com', '', '2001:db8::1', ['198.51.100.1'], '01.2.3.4', 'x'.repeat(300)]))
    expect(data).toMatchObject({ count: 10, valid: 2, invalid: 8 })
    const [ok1, octet, number, nul, host, empty, ok2, array, octal, long] = data.results
    expect(ok1).toMatchObject({ ip: '192.0.2.1', class: 'documentation' })
    expect(ok2).toMatchObject({ ip: '2001:db8::1', class: 'documentation' })
    expect(octet).toEqual({ input: '10.0.0.300', error: { code: 'bad_request', message: expect.stringMatching(/octet 4 is 300/) } })
    expect(number).toEqual({ input: '5', error: { code: 'bad_request', message: 'expected an address as a string; got number' } })
    expect(nul!.error.message).toBe('expected an address as a string; got null')
    expect(array!.error.message).toBe('expected an address as a string; got an array')
    expect(host!.error.message).toMatch(/host name/)
    expect(empty!.input).toBe('')
    expect(empty!.error.code).toBe('bad_request')
    // No octal/hex/decimal forms (DESIGN.md): a leading zero is an error, as on /api/ip.
    expect(octal!.error.code).toBe('bad_request')
    expect((await t.json('/api/ip/01.2.3.4')).status).toBe(400)
    // A long entry is echoed cut short.
    expect(long!.input).toHaveLength(101)
  })

  it('takes {"ips": [...]}, text/plain (comments, blank lines, CRLF) and text/csv (first cell, quoted)', async () => {
    const wrapped = await bulk(JSON.stringify({ ips: ['192.0.2.1', '2001:db8::2'] }))
    expect(wrapped.results.map((r) => r.ip)).toEqual(['192.0.2.1', '2001:db8::2'])
    const plain = await bulk('# firewall hits\r\n192.0.2.1\r\n\r\n  198.51.100.2  \r\nnot-an-ip\r\n', 'text/plain')
    expect(plain.results.map((r) => r.ip ?? r.input)).toEqual(['192.0.2.1', '198.51.100.2', 'not-an-ip'])
    expect(plain).toMatchObject({ count: 3, valid: 2, invalid: 1 })
    // A CSV whose rows start with a quoted cell is CSV, not JSON; a header row is one bad entry.
    const csv = await bulk('"ip","seen"\n"192.0.2.1","2026-01-01"\n203.0.113.5,"a, b"\n# note\n"2001:db8::3",x\n', 'text/csv')
    expect(csv.results.map((r) => r.ip ?? r.input)).toEqual(['ip', '192.0.2.1', '203.0.113.5', '2001:db8::3'])
    expect(csv.results[0]!.error.code).toBe('bad_request')
    expect(csv.results[2]).toMatchObject({ ip: '203.0.113.5', class: 'documentation' })
  })
})

describe('a malformed request is a 400 naming what and where; oversize a 413 naming the limit', () => {
  it('names the line and column of broken JSON', async () => {
    const res = await post('[\n  "192.0.2.1",\n  "198.51.100.1" "203.0.113.1"\n]')
    const body = await res.json()
    expect(res.status).toBe(400)
    expect(body.error.code).toBe('bad_request')
    expect(body.error.message).toMatch(/not valid JSON.*\(line 3, column 18\)/)
    expect(body.error.details).toEqual({ param: 'body', position: 34, line: 3, column: 18 })
    const cut = await (await post('["192.0.2.1",')).json()
    expect(cut.error.details).toMatchObject({ param: 'body', position: 13, line: 1, column: 14 })
  })

  it('refuses what is not a list, and an empty one', async () => {
    for (const body of ['{"addresses": ["192.0.2.1"]}', '"192.0.2.1"', '42']) {
      const res = await (await post(body)).json()
      expect(res.error.code, body).toBe('bad_request')
      expect(res.error.message, body).toMatch(/expected a JSON array of addresses/)
    }
    const empty = await (await post('[]')).json()
    expect(empty.error.message).toMatch(/the list is empty/)
    expect((await post('   ', 'text/plain')).status).toBe(400)
  })

  it('takes 100,000 entries and refuses 100,001 with a 413 that names the limit', async () => {
    const ok = await bulk(JSON.stringify(Array.from({ length: 100_000 }, (_, i) => `198.51.100.${i % 256}`)))
    expect(ok.count).toBe(100_000)
    expect(ok.results[99_999]).toMatchObject({ ip: `198.51.100.${99_999 % 256}`, class: 'documentation' })
    const res = await post(JSON.stringify(Array.from({ length: 100_001 }, () => '192.0.2.1')))
    const body = await res.json()
    expect(res.status).toBe(413)
    expect(body.error.code).toBe('payload_too_large')
    expect(body.error.message).toMatch(/100,001 entries.*at most 100,000/)
    expect(body.error.details).toEqual({ max_entries: 100_000, entries: 100_001 })
    const huge = await post('192.0.2.1\n'.repeat(900_000), 'text/plain')
    expect(huge.status).toBe(413)
    expect((await huge.json()).error.details).toEqual({ max_bytes: 8 * 1024 * 1024 })
  }, 60_000)
})

describe('the JSON answer is written as bytes from the lookups (descriptor preEncoded)', () => {
  /**
   * The answer's text with what each delivery says of itself masked: the request id,
   * the timestamp, and the VRP set's age, read from the clock per request (two
   * requests on either side of a second's turn differ by one: seen under faketime +3y).
   */
  const masked = async (res: Response) => {
    const text = await res.text()
    expect(res.status, text.slice(0, 300)).toBe(200)
    return text
      .replaceAll(res.headers.get('x-request-id')!, 'ID')
      .replace(/"timestamp":"[^"]+"/, '"timestamp":"T"')
      .replace(/"age_seconds":\d+/, '"age_seconds":0')
      .replace(/"links":\{"self":"[^"]+"\}/, '"links":{}')
  }

  it('byte for byte what JSON.stringify gives for the objects (fields= takes the object path)', async () => {
    const rand = prng(20261126)
    // IPv6 that the byte path takes (plain text, canonical or not) and that it
    // leaves to the object path (an IPv4 address inside, brackets, a zone).
    // (Routed IPv6 comes from the random ones below; the Teredo address carries the
    // documentation addresses 192.0.2.1 as server and 203.0.113.9 as client.)
    const list: unknown[] = ['2001:0DB8::1', 'FE80::1', '::1', '::', 'ff02::1', '2001:0:c000:201:0:63bf:34ff:8ef6', '64:ff9b::c000:201', '2002:c000:201::1', '::c000:201', '[2001:db8::7]', '2001:db8::1%eth0', '2001:db8::1::2']
    for (let i = 0; i < 3000; i++) {
      const r = rand()
      if (r < 0.7) list.push(Array.from({ length: 4 }, () => Math.floor(rand() * 256)).join('.'))
      else if (r < 0.85) list.push(bigToV6((0x2000n + BigInt(Math.floor(rand() * 0x1000))) << 112n | BigInt(Math.floor(rand() * 2 ** 48))))
      else if (r < 0.9) list.push(`::ffff:${Math.floor(rand() * 224)}.1.2.3`)
      else if (r < 0.95) list.push(['10.0.0.256', '', 'x"\\\u0000\u2028é', '01.2.3.4', ' 192.0.2.9\t'][Math.floor(rand() * 5)])
      else list.push([null, 7, ['8.8.8.8'], { ip: '8.8.8.8' }, true][Math.floor(rand() * 5)])
    }
    // The dotted quads are looked up in address order, the answers written in the
    // list's (bulk-batch.ts): the same address again, near and far (with spaces
    // around it), and its neighbours in one block, must each get their own slot.
    const quads = list.filter((entry): entry is string => typeof entry === 'string' && /^\d+\.\d+\.\d+\.\d+$/.test(entry))
    for (let i = 0; i < 300; i++) {
      const quad = quads[Math.floor(rand() * quads.length)]!
      const [a, b, c, d] = quad.split('.').map(Number) as [number, number, number, number]
      list.splice(Math.floor(rand() * list.length), 0, rand() < 0.5 ? quad : ` ${quad} `)
      list.push(quad, `${a}.${b}.${c}.${(d + 1) % 256}`, `${a}.${b}.${c ^ 1}.${d}`)
    }
    const body = JSON.stringify(list)
    const bytes = await masked(await post(body))
    // Naming every top-level field is shaping: the list is decoded, rebuilt and
    // stringified whole by the json format, the path every endpoint takes.
    const objects = await masked(await post(body, 'application/json', '?fields=count,valid,invalid,results,rpki,data_source'))
    expect(bytes.length).toBeGreaterThan(300_000)
    expect(bytes).toBe(objects)
    // And the objects are the single endpoint's answers (the first describe), here in sample.
    const results = (JSON.parse(bytes).data as { results: Result[] }).results
    for (const i of [0, 1, 2, 500, 1500, 2999]) {
      if (typeof list[i] === 'string' && results[i]!.error === undefined) expect(results[i]).toEqual(await expectedFor(list[i] as string))
    }
  }, 120_000)

  it('pretty=true, format=yaml and sort= get the decoded list', async () => {
    const list = ['8.8.8.8', '192.0.2.1', 'bad', '2001:db8::1']
    const plain = await bulk(JSON.stringify(list))
    const pretty = await post(JSON.stringify(list), 'application/json', '?pretty=true')
    const prettyText = await pretty.text()
    expect(prettyText).toContain('\n  "data": {\n')
    expect(JSON.parse(prettyText).data).toEqual(plain)
    const sorted = await bulk(JSON.stringify(list), 'application/json', '?sort=ip&order=desc')
    // By address, IPv6 after IPv4, descending; the bad entry has no ip and goes last.
    expect(sorted.results.map((r) => r.ip ?? r.input)).toEqual(['2001:db8::1', '192.0.2.1', '8.8.8.8', 'bad'])
    const yaml = await post(JSON.stringify(list), 'application/json', '?format=yaml')
    const yamlText = await yaml.text()
    expect(yaml.status).toBe(200)
    expect((parseYaml(yamlText) as { data: unknown }).data).toEqual(plain)
  })
})

describe('formats and NDJSON', () => {
  const list = ['192.0.2.1', '8.8.8.8', 'bad', '2001:db8::5']

  it('streams one line per entry, equal to the JSON answer\'s results, when asked', async () => {
    const whole = await bulk(JSON.stringify(list))
    const res = await post(JSON.stringify(list), 'application/json', '', { accept: 'application/x-ndjson' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('ratelimit-remaining')).not.toBeNull()
    const text = await res.text()
    expect(text.endsWith('\n')).toBe(true)
    expect(text.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(whole.results)
  })

  it('writes plain lines as bytes in windows (the lookups in address order), byte for byte the object path\'s lines', async () => {
    // More entries than the first window (SLICE) and a later one (STREAM_WINDOW)
    // hold, with repeats across windows, IPv6, bad entries and non-strings.
    const rand = prng(20261127)
    const long: unknown[] = []
    for (let i = 0; i < SLICE + STREAM_WINDOW + 3_000; i++) {
      const r = rand()
      if (r < 0.8) long.push(Array.from({ length: 4 }, () => Math.floor(rand() * 256)).join('.'))
      else if (r < 0.9 && long.length > 0) long.push(long[Math.floor(rand() * long.length)])
      else if (r < 0.95) long.push(bigToV6((0x2000n + BigInt(Math.floor(rand() * 0x1000))) << 112n | BigInt(Math.floor(rand() * 2 ** 48))))
      else long.push(['10.0.0.256', ' 192.0.2.9 ', '::ffff:192.0.2.1', null, 7][Math.floor(rand() * 5)])
    }
    const ndjson = { accept: 'application/x-ndjson' }
    const plain = await post(JSON.stringify(long), 'application/json', '', ndjson)
    const plainText = await plain.text()
    // Naming every field shapes each line: the object path, JSON.stringify per line.
    const every = 'results.ip,results.version,results.asn,results.as_name,results.country,results.class,results.bogon,results.prefix,results.rpki,results.input,results.error'
    const shapedText = await (await post(JSON.stringify(long), 'application/json', `?fields=${every}`, ndjson)).text()
    expect(plainText.split('\n').length).toBe(long.length + 1)
    expect(plainText).toBe(shapedText)
  }, 60_000)

  it('applies fields= inside the line, and refuses sort/limit for NDJSON', async () => {
    const ndjson = { accept: 'application/x-ndjson' }
    const res = await post(JSON.stringify(list), 'application/json', '?fields=results.ip,results.asn', ndjson)
    expect((await res.text()).trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual([{ ip: '192.0.2.1', asn: null }, { ip: '8.8.8.8', asn: 15169 }, {}, { ip: '2001:db8::5', asn: null }])
    const sorted = await post(JSON.stringify(list), 'application/json', '?sort=results.ip', ndjson)
    expect(sorted.status).toBe(400)
    expect((await sorted.json()).error.details.param).toBe('sort')
    const outside = await post(JSON.stringify(list), 'application/json', '?fields=count', ndjson)
    expect(outside.status).toBe(400)
    expect((await outside.json()).error.message).toMatch(/not in an NDJSON line/)
  })

  it('gives format=csv one row per entry (format= wins over Accept), and JSON without Accept', async () => {
    const res = await post(JSON.stringify(list), 'application/json', '?format=csv&fields=results.ip,results.asn,results.error.message', { accept: 'application/x-ndjson' })
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/)
    const rows = (await res.text()).trimEnd().split(/\r?\n/)
    expect(rows[0]).toBe('results.ip,results.asn,results.error.message')
    expect(rows.slice(1)).toHaveLength(4)
    expect(rows[2]).toBe('8.8.8.8,15169,')
    // Sorting and paging the whole answer work in JSON.
    const paged = await bulk(JSON.stringify(list), 'application/json', '?limit=2&offset=1')
    expect(paged.results.map((r) => r.ip ?? r.input)).toEqual(['8.8.8.8', 'bad'])
  })
})

describe('the rate limit charges 1 unit per 1,000 addresses before anything runs', () => {
  let limited: TestApp
  beforeAll(async () => {
    limited = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=5' })
  })
  afterAll(() => limited.close())
  const send = (n: number) =>
    limited.request('/api/ip/bulk', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(Array.from({ length: n }, () => '192.0.2.1')) })

  it('charges ceil(n / 1000), and a 429 names the cost and what is left', async () => {
    const first = await send(2_500)
    expect(first.status).toBe(200)
    expect(first.headers.get('ratelimit-remaining')).toBe('2')
    const second = await send(1)
    expect(second.headers.get('ratelimit-remaining')).toBe('1')
    const refused = await send(1_001)
    const body = await refused.json()
    expect(refused.status).toBe(429)
    expect(body.error.details).toMatchObject({ tier: 'anonymous', limit: 5, cost: 2, remaining: 1 })
    expect(body.error.message).toMatch(/costs 2 units and 1 unit of 5 are left/)
    // The refused request gave its units back: the 1 left still buys 1,000 addresses.
    expect((await send(1_000)).status).toBe(200)
    const never = await (await send(6_000)).json()
    expect(never.error.message).toMatch(/costs 6 units, more than the anonymous tier's whole limit of 5/)
  })
})

describe('over a real socket', () => {
  let server: Server
  let base: string
  beforeAll(async () => {
    server = await listen(t, { port: 0, host: '127.0.0.1' })
    base = server.url!.replace(/\/$/, '')
  })
  afterAll(() => server.close(true))

  const list = Array.from({ length: 100_000 }, (_, i) => (i % 10 === 9 ? `2001:db8::${(i % 65536).toString(16)}` : `${['192.0.2', '198.51.100', '203.0.113'][i % 3]}.${i % 256}`))

  it('answers 100,000 addresses as JSON and, gzip-coded, as NDJSON read line by line', async () => {
    const json = await fetch(`${base}/api/ip/bulk`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: list.join('\n') })
    expect(json.status).toBe(200)
    const data = ((await json.json()) as Result).data
    expect(data.count).toBe(100_000)
    expect(data.results[9]).toMatchObject({ ip: '2001:db8::9', class: 'documentation', bogon: true })
    expect(data.results[5]).toMatchObject({ ip: '203.0.113.5', asn: null })

    const res = await fetch(`${base}/api/ip/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson', 'accept-encoding': 'gzip' },
      body: JSON.stringify(list),
    })
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('content-length')).toBeNull()
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
    let buffered = ''
    let lines = 0
    let chunks = 0
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      chunks++
      buffered += value
      const cut = buffered.lastIndexOf('\n')
      if (cut === -1) continue
      for (const line of buffered.slice(0, cut).split('\n')) {
        if (line === '') continue
        expect(JSON.parse(line).ip).toBe(data.results[lines].ip)
        lines++
      }
      buffered = buffered.slice(cut + 1)
    }
    expect(buffered).toBe('')
    expect(lines).toBe(100_000)
    // Sent in slices as they are made, not as one body at the end.
    expect(chunks).toBeGreaterThan(1)
  }, 60_000)

  it('keeps serving when a client walks away from a stream', async () => {
    const controller = new AbortController()
    const res = await fetch(`${base}/api/ip/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify(list),
      signal: controller.signal,
    })
    const reader = res.body!.getReader()
    await reader.read()
    controller.abort()
    const health = await fetch(`${base}/api/health`)
    expect(health.status).toBe(200)
    const again = await fetch(`${base}/api/ip/bulk`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '["192.0.2.1"]' })
    expect(((await again.json()) as Result).data.results[0].class).toBe('documentation')
  }, 30_000)
})
