import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// Hostile JSON bodies: too deep is a 400 before anything recurses over it, too
// large a 413, and neither is a 500.

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t.close())

const summarize = (body: string) => t.json('/api/cidr/summarize', { method: 'POST', body, headers: { 'content-type': 'application/json' } })

const DEPTH_MESSAGE = 'The JSON body nests arrays and objects more than 64 levels deep; send at most 64 levels'

function expectTooDeep(res: Awaited<ReturnType<typeof summarize>>): void {
  expect(res.status).toBe(400)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  expect(res.body.success).toBe(false)
  expect(res.body.request_id).toBe(res.headers.get('x-request-id'))
  expect(res.body.error.code).toBe('bad_request')
  expect(res.body.error.message).toContain(DEPTH_MESSAGE)
  expect(res.body.error.details).toEqual({ param: 'body', max_depth: 64 })
}

describe('JSON body depth (POST /api/cidr/summarize)', () => {
  it('5,000 nested arrays: 400 naming the limit', async () => {
    expectTooDeep(await summarize('['.repeat(5000) + ']'.repeat(5000)))
  })

  it('5,000 nested arrays inside {"cidrs": ...}: 400 naming the limit', async () => {
    expectTooDeep(await summarize(`{"cidrs":[${'['.repeat(5000)}${']'.repeat(5000)}]}`))
  })

  it('5,000 nested objects: 400 naming the limit', async () => {
    expectTooDeep(await summarize('{"a":'.repeat(5000) + '1' + '}'.repeat(5000)))
  })

  it('a million levels: 400 quickly, and the service still answers', async () => {
    const started = performance.now()
    expectTooDeep(await summarize('['.repeat(1_000_000) + ']'.repeat(1_000_000)))
    expect(performance.now() - started).toBeLessThan(2000)
    expect(t.logs.filter((l) => (l.level as number) >= 50)).toEqual([])
  })

  it('64 levels are still taken; an entry that is itself nested is reported, not a crash', async () => {
    const entry = '['.repeat(62) + ']'.repeat(62)
    const res = await summarize(`{"cidrs":["192.0.2.0/25","192.0.2.128/25",${entry}]}`)
    expect(res.status).toBe(200)
    expect(res.body.data.ipv4).toEqual(['192.0.2.0/24'])
    expect(res.body.data.invalid).toEqual([{ index: 2, input: entry, reason: 'expected a CIDR string, got an array' }])
  })

  it('brackets inside strings are not nesting', async () => {
    const res = await summarize(JSON.stringify({ cidrs: ['192.0.2.1', '['.repeat(5000) + '\\"' + '{'.repeat(5000)] }))
    expect(res.status).toBe(200)
    expect(res.body.data.ipv4).toEqual(['192.0.2.1/32'])
    expect(res.body.data.invalid).toHaveLength(1)
  })
})

describe('JSON body size', () => {
  it('past 4 MiB: 413 payload_too_large naming the limit', async () => {
    const big = JSON.stringify({ cidrs: Array.from({ length: 300_000 }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`) })
    expect(big.length).toBeGreaterThan(4 * 1024 * 1024)
    const res = await summarize(big)
    expect(res.status).toBe(413)
    expect(res.body.request_id).toBe(res.headers.get('x-request-id'))
    expect(res.body.error.code).toBe('payload_too_large')
    expect(res.body.error.message).toMatch(/exceeds 4194304 bytes/)
    expect(res.body.error.details).toEqual({ max_bytes: 4 * 1024 * 1024 })
  })
})
