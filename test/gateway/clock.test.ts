import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { defineFixedClock } from '../../runtime/clock.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// One injectable clock for the whole service (runtime/clock.ts): every date an
// answer, a header or a log line carries, cache freshness and rate windows all
// follow createApp's `clock`, never the host's time.

const START = '2031-02-03T04:05:06.789Z'
const DAY = 86_400_000

const clock = defineFixedClock(START)
let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=3,free=600,pro=6000' }, { clock })
})
afterAll(() => t?.close())

// Each request from its own forwarded client would need a trusted proxy; the
// rate-limit case below uses the budget on purpose, the others reset it by moving
// the clock a window ahead first.
const nextWindow = () => clock.advance(61_000)

describe('the service clock', () => {
  it('stamps envelopes, ULIDs, request ids and health with its now, and moves only when it moves', async () => {
    clock.set(START)
    const uuid = await t.json('/api/uuid')
    expect(uuid.body.timestamp).toBe(START)
    const ulid = await t.json('/api/ulid')
    expect(ulid.body.data.timestamp).toBe(START)
    expect(ulid.body.data.time_ms).toBe(Date.parse(START))
    // A ULID's first 10 characters are its millisecond time.
    expect(ulid.body.request_id.slice(0, 10)).toBe(ulid.body.data.ulid.slice(0, 10))
    const error = await t.json('/api/uuid/bulk?count=5000')
    expect(error.status).toBe(400)
    expect(error.body.timestamp).toBe(START)
    const health = await t.json('/api/health')
    expect(Date.parse(health.body.data.started_at)).toBeLessThanOrEqual(Date.parse(START))

    clock.advance(400 * DAY)
    const later = new Date(Date.parse(START) + 400 * DAY).toISOString()
    expect((await t.json('/api/uuid')).body.timestamp).toBe(later)
    expect((await t.json('/api/ulid')).body.data.timestamp).toBe(later)
  })

  it('writes log lines with its time', async () => {
    nextWindow()
    const at = new Date(clock.now()).toISOString()
    const { body } = await t.json('/api/uuid')
    // Access lines are written in batches: wait for this request's.
    let access: Record<string, unknown> | undefined
    for (let i = 0; i < 100 && !access; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
      access = t.logs.find((l) => l.log === 'access' && l.request_id === body.request_id)
    }
    expect(access?.time).toBe(at)
  })

  it('decides cache freshness: fresh until the TTL passes on its clock, whatever the host time', async () => {
    nextWindow()
    const first = await t.json('/api/test/cached/clock-ttl')
    expect(first.body.meta.cache).toBe('miss')
    clock.advance(59_000)
    const hit = await t.json('/api/test/cached/clock-ttl')
    expect(hit.body.meta.cache).toBe('hit')
    expect(hit.body.data.call).toBe(first.body.data.call)
    expect(hit.headers.get('cache-control')).toMatch(/\bmax-age=1$/)
    clock.advance(2_000)
    const again = await t.json('/api/test/cached/clock-ttl')
    expect(again.body.meta.cache).toBe('miss')
    expect(again.body.data.call).toBe(first.body.data.call + 1)
  })

  it('opens and closes rate-limit windows', async () => {
    nextWindow()
    for (let i = 0; i < 3; i++) expect((await t.json('/api/uuid')).status).toBe(200)
    const refused = await t.json('/api/uuid')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('ratelimit-reset')).toBe('60')
    clock.advance(30_000)
    expect((await t.json('/api/uuid')).headers.get('ratelimit-reset')).toBe('30')
    clock.advance(30_001)
    expect((await t.json('/api/uuid')).status).toBe(200)
  })
})

/** Service code: where the host clock must not be read. */
const SERVICE_DIRS = ['runtime', 'registry', 'plugins']
// Each exception says why the host clock is right there.
const ALLOWED = new Map<string, string>([
  ['runtime/clock.ts', 'the system clock itself'],
  ['runtime/net/dns/dns-rdata.ts', 'RRSIG serial times: "now" only picks the 136-year era while decoding'],
])

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return sources(path)
    return path.endsWith('.ts') ? [path] : []
  })
}

describe('service code reads dates only from the clock', () => {
  it('no Date.now() or new Date() (the current instant) outside runtime/clock.ts', () => {
    const found: string[] = []
    for (const dir of SERVICE_DIRS) {
      for (const file of sources(join(ROOT, dir))) {
        const name = relative(ROOT, file)
        if (ALLOWED.has(name)) continue
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            const code = /^\s*(?:\/\*|\*)/.test(line) ? '' : line.replace(/\/\/.*$/, '')
            if (/\bDate\.now\b|new Date\(\s*\)/.test(code)) found.push(`${name}:${i + 1}: ${line.trim()}`)
          })
      }
    }
    expect(found, 'read the time from api.clock / ctx.clock (runtime/clock.ts)').toEqual([])
  })
})
