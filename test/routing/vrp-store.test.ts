import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { UnavailableError } from '../../runtime/errors.ts'
import { createGuardedNetwork } from '../../runtime/net/guarded-network.ts'
import { NOT_FOUND, VALID } from '../../plugins/routing/rpki/vrp-index.ts'
import { VrpStore } from '../../plugins/routing/rpki/vrp-store.ts'
import type { VrpStoreOptions } from '../../plugins/routing/rpki/vrp-store.ts'
import type { VrpSource } from '../../plugins/routing/rpki/vrp-source.ts'
import { vrpSource } from '../../plugins/routing/rpki/vrp-source.ts'
import { vrpSetInfo } from '../../plugins/routing/vrp-set-info.ts'
import type { FakeVrp } from '../support/fake-vrp.ts'
import { RPKI_FIXTURES, defaultVrpExport, startFakeVrp } from '../support/fake-vrp.ts'

// The VRP store against the fake VRP source and files: first load, periodic
// refresh (conditional, 304), keeping the last good set through every kind of
// failure, readiness, and the 503 before any set exists.

const log = pino({ level: 'silent' })
const network = createGuardedNetwork({ policy: { allowLoopback: true }, lookup: async () => [] })

let vrp: FakeVrp
const stores: VrpStore[] = []
beforeAll(async () => {
  vrp = await startFakeVrp()
})
afterAll(async () => {
  for (const s of stores) s.close()
  await vrp.close()
})
beforeEach(() => {
  vrp.setFault(null)
  vrp.setBody(defaultVrpExport())
})

function store(location: string, options: Partial<VrpStoreOptions> = {}, timeoutMs = 2000): VrpStore {
  // Refreshes are driven by the tests (refresh()), not by the timers.
  const s = new VrpStore({ source: vrpSource(location, network, timeoutMs), log, refreshMs: 3_600_000, retryMs: 3_600_000, timeoutMs, now: () => Date.now(), ...options })
  stores.push(s)
  return s
}

const oneVrp = (asn: number, prefix: string, maxLength: number) => ({ metadata: { buildtime: '2026-11-23T00:00:00Z' }, roas: [{ asn, prefix, maxLength, ta: 'test' }] })

describe('loading', () => {
  it('a 503 with the reason until the first set is loaded; readiness fails during the first load only', async () => {
    const s = store(vrp.url)
    expect(() => s.require()).toThrow(UnavailableError)
    expect(() => s.require()).toThrow(/still loading/)
    expect(() => s.readiness()).toThrow(/loading VRPs from/)
    const first = s.refresh()
    expect(() => s.readiness()).toThrow(/loading VRPs/)
    expect(await first).toBe(true)
    expect(s.readiness()).toBeUndefined()
    const set = s.require()
    expect(set.index.stats).toMatchObject({ vrps: 384, rejected: 0 })
    expect(set.generatedAt).toBe('2023-10-01T00:05:43.000Z')
    expect(set.index.validate('193.0.0.0/21', 3333)).toBe(VALID)
  })

  it('from a file path, and a file:// URL', async () => {
    const path = join(RPKI_FIXTURES, 'routinator_jsonext_2025-03-09_excerpt.json')
    for (const location of [path, `file://${path}`]) {
      // The recording's VRPs expired in March 2025: read it on the day it was made.
      const s = store(location, { now: () => Date.parse('2025-03-10T00:00:00Z') })
      expect(await s.refresh()).toBe(true)
      expect(s.require().index.stats.vrps).toBe(2)
      // unchanged file: not read again
      expect(await s.refresh()).toBe(false)
      expect(s.status().checkedAt).not.toBeNull()
    }
  })

  it('a source that cannot be had: ready but degraded after the first attempt, 503 naming the error', async () => {
    const s = store('http://127.0.0.1:1/vrps.json')
    expect(await s.refresh()).toBe(false)
    expect(s.readiness()).toMatch(/no VRP set .*\/api\/rpki answers 503/)
    let error: UnavailableError | undefined
    try {
      s.require()
    } catch (e) {
      error = e as UnavailableError
    }
    expect(error?.status).toBe(503)
    expect(error?.message).toMatch(/no VRP set could be loaded from http:\/\/127\.0\.0\.1:1\/vrps\.json/)
    expect(error?.details).toMatchObject({ data: 'vrps', source: 'http://127.0.0.1:1/vrps.json', last_error: expect.any(String) })
  })

  it('a missing file is a failure like any other', async () => {
    const s = store('/nonexistent/vrps.json')
    expect(await s.refresh()).toBe(false)
    expect(s.status().lastError?.message).toMatch(/ENOENT/)
  })
})

describe('expiry', () => {
  const T = Date.parse('2026-06-01T00:00:00Z')
  const H = 3600_000
  const roa = (asn: number, prefix: string, expiresAt?: number) => ({ asn, prefix, maxLength: 24, ta: 'test', ...(expiresAt === undefined ? {} : { expires: Math.floor(expiresAt / 1000) }) })
  const exportOf = (...roas: object[]) => ({ metadata: { buildtime: new Date(T).toISOString() }, roas })

  it('drops expired VRPs at load, and from a kept set as it ages (injected clock)', async () => {
    let clock = T
    const s = store(vrp.url, { now: () => clock, pruneMinIntervalMs: 0 })
    vrp.setBody(exportOf(roa(64500, '192.0.2.0/24', T - H), roa(64501, '198.51.100.0/24', T + H), roa(64502, '203.0.113.0/24', T + 2 * H), roa(64503, '100.64.0.0/24')))
    expect(await s.refresh()).toBe(true)
    const set = s.require()
    expect(set.index.stats.vrps).toBe(3)
    expect(set.index.validate('192.0.2.0/24', 64500)).toBe(NOT_FOUND) // expired before the load
    expect(vrpSetInfo(s, set)).toMatchObject({ vrps: 3, expired_dropped: 1, next_expiry: new Date(T + H).toISOString() })

    // Nothing due yet: no filtering, the same set.
    clock = T + H - 1
    expect(await s.prune()).toBe(false)
    expect(s.require()).toBe(set)

    clock = T + H
    expect(await s.prune()).toBe(true)
    expect(s.require().index.validate('198.51.100.0/24', 64501)).toBe(NOT_FOUND)
    expect(s.require().index.validate('203.0.113.0/24', 64502)).toBe(VALID)
    expect(vrpSetInfo(s, s.require())).toMatchObject({ vrps: 2, expired_dropped: 2, next_expiry: new Date(T + 2 * H).toISOString(), loaded_at: new Date(T).toISOString() })

    // A request past the next expiry starts the filtering by itself.
    clock = T + 3 * H
    const stale = s.current()
    expect(stale?.index.stats.vrps).toBe(2)
    expect(s.status().loading).toBe(false)
    await s.prune() // joins the filtering the request started
    expect(vrpSetInfo(s, s.require())).toMatchObject({ vrps: 1, expired_dropped: 3, next_expiry: null })
    expect(s.require().index.validate('100.64.0.0/24', 64503)).toBe(VALID)
  })

  it('at most one filtering per pruneMinIntervalMs', async () => {
    let clock = T
    const s = store(vrp.url, { now: () => clock, pruneMinIntervalMs: 60_000 })
    vrp.setBody(exportOf(roa(1, '192.0.2.0/24', T + 1000), roa(2, '198.51.100.0/24', T + 2000), roa(3, '203.0.113.0/24', T + H)))
    await s.refresh()
    clock = T + 1000
    expect(await s.prune()).toBe(true)
    clock = T + 2000
    expect(await s.prune()).toBe(false) // due, but too soon after the last one
    expect(s.require().index.stats.vrps).toBe(2)
    clock = T + 61_000
    expect(await s.prune()).toBe(true)
    expect(s.require().index.stats.vrps).toBe(1)
  })

  it('a set whose VRPs have all expired is a 503, and readiness says so', async () => {
    let clock = T
    const s = store(vrp.url, { now: () => clock, pruneMinIntervalMs: 0 })
    vrp.setBody(exportOf(roa(1, '192.0.2.0/24', T + H)))
    await s.refresh()
    vrp.setFault({ kind: 'status', status: 500 })
    await s.refresh()
    clock = T + H
    await s.prune()
    expect(s.current()).toBeNull()
    expect(() => s.require()).toThrow(/every VRP of the set loaded 2026-06-01T00:00:00.000Z from .* has expired; refreshing it fails \(.*HTTP 500\)/)
    expect(s.readiness()).toMatch(/every VRP of the set loaded .* has expired/)
    vrp.setFault(null)
    vrp.setBody(exportOf(roa(2, '198.51.100.0/24', T + 5 * H)))
    expect(await s.refresh()).toBe(true)
    expect(s.require().index.validate('198.51.100.0/24', 2)).toBe(VALID)
  })

  it('an export whose VRPs have all expired is refused: the last good set stays', async () => {
    const clock = T
    const s = store(vrp.url, { now: () => clock })
    vrp.setBody(exportOf(roa(1, '192.0.2.0/24', T - H)))
    expect(await s.refresh()).toBe(false)
    expect(s.status().lastError?.message).toMatch(/every one of the export's 1 VRPs has expired \(generated 2026-06-01T00:00:00.000Z\)/)
    expect(() => s.require()).toThrow(/no VRP set could be loaded/)
    vrp.setBody(exportOf(roa(2, '198.51.100.0/24', T + H)))
    expect(await s.refresh()).toBe(true)
    vrp.setBody(exportOf(roa(3, '203.0.113.0/24', T - 1)))
    expect(await s.refresh()).toBe(false)
    expect(s.require().index.validate('198.51.100.0/24', 2)).toBe(VALID)
  })

  it('a refresh that lands while a filtering rebuilds wins: the filtered old set is not swapped in over it', async () => {
    let clock = T
    let body: object = exportOf(roa(1, '192.0.2.0/24', T + H), roa(2, '198.51.100.0/24', T + 2 * H))
    // An in-memory source: no I/O, so the order of the two rebuilds is fixed by event-loop turns alone.
    const memory: VrpSource = { location: 'memory:', kind: 'file', fetch: async () => ({ changed: true, body: Buffer.from(JSON.stringify(body)), validators: { etag: null, lastModified: null } }) }
    const s = new VrpStore({ source: memory, log, refreshMs: 3_600_000, now: () => clock, pruneMinIntervalMs: 0 })
    stores.push(s)
    await s.refresh()
    clock = T + H
    body = exportOf(roa(3, '203.0.113.0/24', T + 5 * H))
    const refreshing = s.refresh()
    await new Promise((resolve) => setImmediate(resolve)) // the refresh is one turn into its rebuild
    const pruning = s.prune() // starts from the old set, and needs every turn of a rebuild
    expect(await refreshing).toBe(true)
    expect(await pruning).toBe(false)
    expect(s.require().index.stats.vrps).toBe(1)
    expect(s.require().index.validate('203.0.113.0/24', 3)).toBe(VALID)
  })

  it('the kept set is filtered on its own timer (real clock)', async () => {
    const s = store(vrp.url, { pruneMinIntervalMs: 0 })
    const soon = Math.ceil(Date.now() / 1000) * 1000 + 1000 // expires has whole seconds
    vrp.setBody(exportOf(roa(1, '192.0.2.0/24', soon), roa(2, '198.51.100.0/24', Date.now() + 10 * H)))
    await s.refresh()
    expect(s.status().set?.index.stats.vrps).toBe(2)
    for (let i = 0; i < 100 && s.status().set?.index.stats.vrps !== 1; i++) await new Promise((resolve) => setTimeout(resolve, 50))
    // status() does not start a filtering: only the timer can have done it.
    expect(s.status().set?.index.stats.vrps).toBe(1)
    expect(s.status().set?.expiredDropped).toBe(1)
  })
})

describe('refreshing', () => {
  it('asks conditionally and keeps the set on 304; swaps in a changed export', async () => {
    const s = store(vrp.url)
    await s.refresh()
    const before = vrp.log.length
    expect(await s.refresh()).toBe(false)
    expect(vrp.log.slice(before)).toEqual([expect.objectContaining({ conditional: true, status: 304 })])
    vrp.setBody(oneVrp(64500, '192.0.2.0/24', 24))
    expect(await s.refresh()).toBe(true)
    expect(s.require().index.stats.vrps).toBe(1)
    expect(s.require().index.validate('192.0.2.0/24', 64500)).toBe(VALID)
  })

  it.each([
    ['5xx', { kind: 'status', status: 503 }, /HTTP 503/],
    ['HTML instead of JSON', { kind: 'garbage' }, /not a VRP export/],
    ['truncated JSON', { kind: 'truncated' }, /not a VRP export/],
    ['connection reset', { kind: 'reset' }, /.+/],
    ['timeout', { kind: 'timeout' }, /timed out|abort/i],
    ['slow drip past the deadline', { kind: 'drip', bytes: 8, intervalMs: 100 }, /timed out|abort/i],
  ] as const)('keeps the last good set through a failed refresh: %s', async (_, fault, message) => {
    const s = store(vrp.url, {}, 400)
    await s.refresh()
    const good = s.require()
    vrp.setBody(oneVrp(64500, '192.0.2.0/24', 24)) // a change, so the refresh really fetches
    vrp.setFault(fault)
    expect(await s.refresh()).toBe(false)
    expect(s.require()).toBe(good)
    expect(s.status().lastError?.message).toMatch(message)
    expect(s.status().failures).toBe(1)
    expect(s.readiness()).toMatch(/serving the VRP set loaded .* refreshing from .* fails/)
    vrp.setFault(null)
    expect(await s.refresh()).toBe(true)
    expect(s.status().lastError).toBeNull()
    expect(s.readiness()).toBeUndefined()
  })

  it('answers say how old the set is and that its refresh is failing', async () => {
    const s = store(vrp.url)
    vrp.setBody(oneVrp(64500, '192.0.2.0/24', 24)) // generated 2026-11-23T00:00:00Z
    await s.refresh()
    const set = s.require()
    const now = Date.parse('2026-11-23T06:00:00Z')
    expect(vrpSetInfo(s, set, now)).toMatchObject({ source: vrp.url, generated_at: '2026-11-23T00:00:00.000Z', age_seconds: 6 * 3600, stale: false, vrps: 1, last_refresh_error: null })
    expect(vrpSetInfo(s, set, now + 24 * 3600 * 1000).stale).toBe(true)
    vrp.setBody(defaultVrpExport())
    vrp.setFault({ kind: 'status', status: 502 })
    await s.refresh()
    expect(vrpSetInfo(s, s.require(), now)).toMatchObject({ vrps: 1, last_refresh_error: expect.stringMatching(/HTTP 502/) })
  })

  it('refuses an empty export in place of a loaded set', async () => {
    const s = store(vrp.url)
    await s.refresh()
    vrp.setBody({ metadata: {}, roas: [] })
    expect(await s.refresh()).toBe(false)
    expect(s.require().index.stats.vrps).toBe(384)
    expect(s.status().lastError?.message).toMatch(/no VRPs; keeping the 384/)
  })

  it('concurrent refreshes share one fetch', async () => {
    const s = store(vrp.url)
    const before = vrp.log.length
    const [a, b, c] = await Promise.all([s.refresh(), s.refresh(), s.refresh()])
    expect([a, b, c]).toEqual([true, true, true])
    expect(vrp.log.length - before).toBe(1)
  })

  it('refreshes on its own schedule, backing off after failures, and stops when closed', async () => {
    const s = store(vrp.url, { refreshMs: 150, retryMs: 40 })
    const before = vrp.log.length
    s.start()
    await new Promise((resolve) => setTimeout(resolve, 400))
    const periodic = vrp.log.length - before
    expect(periodic).toBeGreaterThanOrEqual(2) // the first load, then refreshes every 150 ms
    vrp.setFault({ kind: 'status', status: 500 })
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(s.status().failures).toBeGreaterThanOrEqual(1)
    const next = s.status().nextAttemptAt! - Date.now()
    expect(next).toBeLessThanOrEqual(150)
    expect(s.require().index.stats.vrps).toBe(384)
    s.close()
    const after = vrp.log.length
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(vrp.log.length).toBe(after)
  })

  it('a file that changes is read again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vrp-file-'))
    try {
      const file = join(dir, 'vrps.json')
      writeFileSync(file, JSON.stringify(oneVrp(1, '192.0.2.0/24', 24)))
      utimesSync(file, new Date(1_700_000_000_000), new Date(1_700_000_000_000))
      const s = store(file)
      await s.refresh()
      writeFileSync(file, JSON.stringify(oneVrp(2, '198.51.100.0/24', 24)))
      utimesSync(file, new Date(1_700_000_100_000), new Date(1_700_000_100_000))
      expect(await s.refresh()).toBe(true)
      expect(s.require().index.validate('198.51.100.0/24', 2)).toBe(VALID)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
