import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=5' })
})
afterAll(() => t.close())

/** Access-log lines are written in batches (every 200 ms or 16 KiB). */
async function accessLine(requestId: string) {
  for (let i = 0; i < 40; i++) {
    const line = t.logs.find((l) => l.request_id === requestId && l.msg === 'request')
    if (line) return line
    await new Promise((r) => setTimeout(r, 25))
  }
  return undefined
}

describe('access logs and metrics', () => {
  it('one JSON access-log line per request with request id, endpoint, tier, status, duration', async () => {
    const res = await t.json('/api/test/cached/log-me')
    const line = await accessLine(res.body.request_id)
    expect(line).toMatchObject({ level: 30, log: 'access', endpoint: 'test.cached', method: 'GET', status: 200, cache: 'miss', tier: 'anonymous' })
    expect(typeof line!.duration_ms).toBe('number')
    const bad = await t.json('/api/test/failing/upstream')
    expect(await accessLine(bad.body.request_id)).toMatchObject({
      status: 502,
      error: { code: 'upstream_error', upstream: 'fake', reason: 'timeout' },
    })
    const missing = await t.json('/api/nowhere')
    expect(await accessLine(missing.body.request_id)).toMatchObject({ status: 404, endpoint: null })
  })

  it('/metrics in Prometheus text: requests by endpoint and status, latency, cache, upstream errors, 429s', async () => {
    await t.request('/api/test/cached/log-me') // a hit
    for (let i = 0; i < 5; i++) await t.request('/api/uuid') // runs into the limit of 5
    const res = await t.request('/metrics')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    const text = await res.text()
    expect(text).toMatch(/infralens_http_requests_total\{endpoint="test.cached",status="200"\} 2/)
    expect(text).toMatch(/infralens_http_requests_total\{endpoint="test.failing",status="502"\} 1/)
    expect(text).toMatch(/infralens_http_requests_total\{endpoint="none",status="404"\} 1/)
    expect(text).toMatch(/infralens_http_request_duration_seconds_bucket\{le="0.005",endpoint="test.cached"\} \d+/)
    expect(text).toMatch(/infralens_cache_requests_total\{endpoint="test.cached",result="hit"\} 1/)
    expect(text).toMatch(/infralens_cache_requests_total\{endpoint="test.cached",result="miss"\} 1/)
    expect(text).toMatch(/infralens_upstream_errors_total\{upstream="fake",reason="timeout"\} 1/)
    expect(text).toMatch(/infralens_rate_limited_total\{tier="anonymous"\} [1-9]/)
    expect(text).toMatch(/infralens_process_resident_memory_bytes \d+/)
  })

  it('/metrics is an operator route, not a registry endpoint', () => {
    expect(t.endpoints.some((e) => e.path.includes('metrics'))).toBe(false)
  })
})
