import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t.close())

const post = (body: string, type = 'application/json') =>
  t.json('/api/cidr/summarize', { method: 'POST', body, headers: { 'content-type': type } })

const ENTRIES = [
  '10.0.0.0/25',
  '10.0.0.128/25',
  '10.0.1.0/24',
  '10.0.3.0/24',
  '192.0.2.7',
  '10.0.2.5/24',
  '2001:db8::/33',
  '2001:db8:8000::/33',
  '2001:db8:1::1',
  'not-a-cidr',
  '1.2.3.4/33',
  '::ffff:0:0/96',
]

const EXPECTED = {
  ipv4: ['10.0.0.0/22', '192.0.2.7/32'],
  ipv6: ['::ffff:0:0/96', '2001:db8::/32'],
  invalid: [
    {
      index: 9,
      input: 'not-a-cidr',
      reason: 'it looks like a host name, not an IP address; expected IPv4 like 192.0.2.1 or IPv6 like 2001:db8::1',
    },
    { index: 10, input: '1.2.3.4/33', reason: 'the prefix length 33 is out of range; IPv4 prefix lengths are 0-32' },
  ],
  stats: {
    entries: 12,
    valid: 10,
    invalid: 2,
    ipv4_input: 6,
    ipv6_input: 4,
    ipv4_output: 2,
    ipv6_output: 2,
    host_bits_cleared: 1,
    ipv4_addresses: '1025',
    ipv6_addresses: ((1n << 96n) + (1n << 32n)).toString(),
  },
}

describe('POST /api/cidr/summarize', () => {
  it('JSON object body: the fewest blocks per family, invalid entries with their reasons', async () => {
    const res = await post(JSON.stringify({ cidrs: ENTRIES }))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data).toEqual(EXPECTED)
    expect(res.body.meta.endpoint).toBe('network.cidr-summarize')
  })

  it('a bare JSON array and text one per line give the same answer', async () => {
    const array = await post(JSON.stringify(ENTRIES))
    expect(array.status).toBe(200)
    expect(array.body.data).toEqual(EXPECTED)
    // Text: blank lines and # comments are skipped, CRLF is fine; indexes count entries.
    const text = await post(`# my blocks\r\n${ENTRIES.join('\r\n')}\r\n\r\n`, 'text/plain')
    expect(text.status).toBe(200)
    expect(text.body.data).toEqual(EXPECTED)
  })

  it('non-string entries of a JSON list are invalid entries, not a failed request', async () => {
    const res = await post(JSON.stringify({ cidrs: ['10.0.0.0/8', 42, null, { a: 1 }] }))
    expect(res.status).toBe(200)
    expect(res.body.data.ipv4).toEqual(['10.0.0.0/8'])
    expect(res.body.data.invalid).toEqual([
      { index: 1, input: '42', reason: 'expected a CIDR string, got a number' },
      { index: 2, input: 'null', reason: 'expected a CIDR string, got null' },
      { index: 3, input: '{"a":1}', reason: 'expected a CIDR string, got an object' },
    ])
  })

  it('everything invalid is still an answer: empty results and every reason', async () => {
    const res = await post(JSON.stringify(['256.1.1.1', '01.2.3.4', '::1/129', '2001:db8::/']))
    expect(res.status).toBe(200)
    expect(res.body.data.ipv4).toEqual([])
    expect(res.body.data.ipv6).toEqual([])
    expect(res.body.data.invalid.map((i: { reason: string }) => i.reason)).toEqual([
      expect.stringContaining('octet 1 is 256'),
      expect.stringContaining('leading zero'),
      'the prefix length 129 is out of range; IPv6 prefix lengths are 0-128',
      'the prefix length after "/" is missing; write a number 0-128, like /64',
    ])
  })

  it.each([
    ['empty body', '', 'application/json', 'The request body is empty; send JSON (or one entry per line).', 'body'],
    ['whitespace only', '  \n ', 'text/plain', 'The request body is empty; send JSON (or one entry per line).', 'body'],
    ['empty array', '[]', 'application/json', 'Invalid "body": the list is empty; send at least one CIDR block or address', 'body'],
    ['empty cidrs', '{"cidrs": []}', 'application/json', 'Invalid "body": the list is empty; send at least one CIDR block or address', 'body'],
    ['wrong key', '{"prefixes": ["10.0.0.0/8"]}', 'application/json', 'expected {"cidrs": ["192.0.2.0/24", ...]}', 'body'],
    ['a JSON string', '"10.0.0.0/8"', 'application/json', 'expected {"cidrs": ["192.0.2.0/24", ...]}', 'body'],
    ['broken JSON', '{"cidrs": [', 'application/json', 'The request body is not valid JSON', 'body'],
    ['only comments', '# nothing\n# here\n', 'text/plain', 'the list is empty', 'body'],
  ])('%s is 400', async (_name, body, type, message, param) => {
    const res = await post(body, type)
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.error.code).toBe('bad_request')
    expect(res.body.error.message).toContain(message)
    expect(res.body.error.details.param).toBe(param)
  })

  it('100,000 entries are accepted; 100,001 are 413 with the limit in the message', async () => {
    const list = Array.from({ length: 100_000 }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
    const ok = await post(list.join('\n'), 'text/plain')
    expect(ok.status).toBe(200)
    // 10.0.0.0 .. 10.1.134.159
    expect(ok.body.data.ipv4).toEqual(['10.0.0.0/16', '10.1.0.0/17', '10.1.128.0/22', '10.1.132.0/23', '10.1.134.0/25', '10.1.134.128/27'])
    expect(ok.body.data.stats.ipv4_addresses).toBe('100000')
    const tooMany = await post(JSON.stringify({ cidrs: [...list, '192.0.2.0/24'] }))
    expect(tooMany.status).toBe(413)
    expect(tooMany.body.error.code).toBe('payload_too_large')
    expect(tooMany.body.error.message).toBe(
      'The list has 100001 entries; cidr/summarize takes at most 100,000 per request. Split it and summarize the results again.',
    )
    expect(tooMany.body.error.details).toEqual({ max_entries: 100_000, entries: 100_001 })
  })

  it('a body over 4 MiB is 413 before it is parsed', async () => {
    const big = '10.0.0.0/8\n'.repeat(400_000)
    expect(big.length).toBeGreaterThan(4 * 1024 * 1024)
    const res = await post(big, 'text/plain')
    expect(res.status).toBe(413)
    expect(res.body.error.code).toBe('payload_too_large')
    expect(res.body.error.details).toEqual({ max_bytes: 4 * 1024 * 1024 })
  })

  it('GET is 405 with Allow: POST', async () => {
    const res = await t.json('/api/cidr/summarize')
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toContain('POST')
  })
})
