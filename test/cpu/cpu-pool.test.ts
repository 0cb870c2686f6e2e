import { readdirSync, readFileSync } from 'node:fs'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { randomPrefixes } from '../../bench/random-prefixes.ts'
import { summarize } from '../../plugins/network/cidr/summarize.ts'
import { presentSummary } from '../../plugins/network/present-cidr.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { ipv6Text, v4 } from '../network/arbitraries.ts'

// The CPU pool (runtime/cpu): endpoints marked `offload` answer from worker
// threads, with the answers and errors an in-process call gives.

const LIMITS = { INFRALENS_RATE_LIMITS: 'anonymous=100000000' }
let pooled: TestApp
let inProcess: TestApp
beforeAll(async () => {
  pooled = await startTestApp({ ...LIMITS, INFRALENS_CPU_WORKERS: '1' })
  inProcess = await startTestApp({ ...LIMITS, INFRALENS_CPU_WORKERS: '0' })
})
afterAll(async () => {
  await pooled.close()
  await inProcess.close()
})

const HEAVY = JSON.stringify({ cidrs: randomPrefixes(100_000, 20261126) })
const post = (t: TestApp, body: string, query = '', init: RequestInit = {}) =>
  t.request(`/api/cidr/summarize${query}`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, ...init })

/** The answer with its request id and timestamp (the two apps' own) masked, in any format. */
const masked = async (res: Response): Promise<string> =>
  (await res.text()).replaceAll(res.headers.get('x-request-id')!, 'ID').replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'TIME')

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(check()).toBe(true)
}

describe('CPU pool', () => {
  it('runs offloaded endpoints in a worker: /api/health answers while a 100k summarize is still there', async () => {
    const cpu = pooled.cpu!
    expect(cpu).toBeDefined()
    const before = cpu.stats().completed
    const order: string[] = []
    const heavy = post(pooled, HEAVY).then(async (res) => {
      order.push(`summarize ${res.status} (completed in pool: ${cpu.stats().completed - before})`)
      return res.json() as Promise<{ data: { stats: { entries: number } } }>
    })
    // Health is asked only once the summarize is in the pool: on the main thread
    // it would hold the event loop until done, and health would come second.
    await until(() => cpu.stats().inFlight === 1)
    const health = await pooled.request('/api/health')
    order.push(`health ${health.status} (summarize in pool: ${cpu.stats().inFlight})`)
    expect((await heavy).data.stats.entries).toBe(100_000)
    expect(order).toEqual(['health 200 (summarize in pool: 1)', 'summarize 200 (completed in pool: 1)'])
    expect(cpu.stats().started).toBe(1)
  })

  it('the worker answers exactly what the in-process pipeline answers (property, every format)', async () => {
    const entry = fc.oneof(
      fc.record({ a: fc.integer({ min: 0, max: 0xffffffff }), len: fc.integer({ min: 8, max: 32 }) }).map(({ a, len }) => `${v4(a)}/${len}`),
      fc.integer({ min: 0, max: 0xffffffff }).map(v4),
      fc.tuple(ipv6Text, fc.integer({ min: 16, max: 128 })).map(([{ text }, len]) => `${text}/${len}`),
      ipv6Text.map(({ text }) => text),
      fc.constantFrom('not-a-cidr', '10.0.0.300', '2001:db8::/129', ' 192.0.2.1 '),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 80 }), fc.constantFrom('', '?format=yaml', '?format=xml', '?format=csv', '?pretty'), async (list, query) => {
        const body = JSON.stringify({ cidrs: list })
        const [a, b] = await Promise.all([post(pooled, body, query), post(inProcess, body, query)])
        expect(a.status).toBe(b.status)
        const [textA, textB] = [await masked(a), await masked(b)]
        expect(textA).toBe(textB)
        if (query === '') expect(JSON.parse(textA).data).toEqual(presentSummary(summarize(list)))
      }),
      { numRuns: 60 },
    )
  })

  it('errors thrown in the worker come back as the same typed errors', async () => {
    const deep = `{"cidrs": ${'['.repeat(100)}${']'.repeat(100)}}`
    const cases: Array<[string, string, number]> = [
      ['{"cidrs": []}', '', 400],
      ['{"cidrs": 5}', '', 400],
      ['{"cidrs": [', '', 400],
      [deep, '', 400],
      [JSON.stringify(Array.from({ length: 100_001 }, () => '192.0.2.1')), '', 413],
      ['["192.0.2.0/24"]', '?format=nope', 400],
    ]
    for (const [body, query, status] of cases) {
      const [a, b] = await Promise.all([post(pooled, body, query), post(inProcess, body, query)])
      const [ja, jb] = [(await a.json()) as Record<string, any>, (await b.json()) as Record<string, any>]
      expect([a.status, ja.error], body.slice(0, 40)).toEqual([status, jb.error])
      expect(ja.request_id).toBe(a.headers.get('x-request-id'))
      // Layers ran on the main thread: their headers are on the worker's answers too.
      expect(a.headers.get('ratelimit-limit')).toBe(b.headers.get('ratelimit-limit'))
    }
  })

  it('a GET endpoint with offload (cidr/expand) pages from the worker, controls included', async () => {
    for (const path of ['/api/cidr/expand/2001:db8::/64?limit=4096&offset=123456789&format=csv', '/api/cidr/expand/192.0.2.0/28?limit=8&offset=4', '/api/cidr/expand/192.0.2.0/28?limit=0']) {
      const [a, b] = await Promise.all([pooled.request(path), inProcess.request(path)])
      expect(a.status).toBe(b.status)
      expect(await masked(a)).toBe(await masked(b))
    }
  })
})

/** The nice value of every thread of this process, by thread id (Linux: /proc/self/task). */
function threadNiceness(): Map<number, number> {
  const nice = new Map<number, number>()
  for (const tid of readdirSync('/proc/self/task')) {
    let stat: string
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    } catch {
      continue // the thread ended between the listing and the read
    }
    // Fields after the parenthesised name: state is field 3, nice field 19.
    nice.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]))
  }
  return nice
}

describe.runIf(process.platform === 'linux')('CPU pool scheduling', () => {
  it('pool threads run below the event loop (nice 10) so a busy pool cannot crowd it out', async () => {
    const t = await startTestApp({ ...LIMITS, INFRALENS_CPU_WORKERS: '2' })
    try {
      const lowered = () => [...threadNiceness().values()].filter((n) => n === 10).length
      const before = lowered()
      expect((await post(t, '["192.0.2.0/24"]')).status).toBe(200)
      await until(() => t.cpu!.stats().started === 2)
      await until(() => lowered() === before + 2)
      // The test's own process (its main thread) keeps its priority.
      expect(threadNiceness().get(process.pid)).toBe(0)
    } finally {
      await t.close()
    }
  })
})

describe('CPU pool bounds', () => {
  it('a full queue answers 503 with Retry-After instead of growing', async () => {
    const t = await startTestApp({ ...LIMITS, INFRALENS_CPU_WORKERS: '1', INFRALENS_CPU_QUEUE: '1' })
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, () => post(t, HEAVY).then(async (res) => ({ res, body: (await res.json()) as Record<string, any> }))))
      const busy = answers.filter((a) => a.res.status === 503)
      expect(answers.filter((a) => a.res.status === 200).length).toBeGreaterThanOrEqual(2)
      expect(busy.length).toBeGreaterThan(0)
      for (const { res, body } of busy) {
        expect(res.headers.get('retry-after')).toBe('1')
        expect(body.error).toMatchObject({ code: 'service_unavailable', details: { reason: 'cpu_queue_full', queue: 1 } })
      }
    } finally {
      await t.close()
    }
  })

  it('a request whose client left is taken out of the queue, never run', async () => {
    const t = await startTestApp({ ...LIMITS, INFRALENS_CPU_WORKERS: '1' })
    try {
      const cpu = t.cpu!
      const first = post(t, HEAVY)
      await until(() => cpu.stats().inFlight === 1)
      const client = new AbortController()
      const second = post(t, HEAVY, '', { signal: client.signal })
      await until(() => cpu.stats().queued === 1)
      client.abort()
      await until(() => cpu.stats().queued === 0)
      expect((await first).status).toBe(200)
      expect((await second).status).toBe(499)
      expect(cpu.stats()).toMatchObject({ completed: 1, inFlight: 0 })
    } finally {
      await t.close()
    }
  })

  it('closing the app closes the pool', async () => {
    const t = await startTestApp({ ...LIMITS, INFRALENS_CPU_WORKERS: '1' })
    expect((await post(t, '["192.0.2.0/24"]')).status).toBe(200)
    expect(t.cpu!.stats().started).toBe(1)
    await t.close()
    expect(t.cpu!.stats().started).toBe(0)
    const after = await post(t, '["192.0.2.0/24"]')
    expect(after.status).toBe(503)
  })
})
