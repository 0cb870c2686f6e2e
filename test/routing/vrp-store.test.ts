import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { UnavailableError } from '../../runtime/errors.ts'
import { createGuardedNetwork } from '../../runtime/net/guarded-network.ts'
import { VALID } from '../../plugins/routing/rpki/vrp-index.ts'
import { VrpStore } from '../../plugins/routing/rpki/vrp-store.ts'
import type { VrpStoreOptions } from '../../plugins/routing/rpki/vrp-store.ts'
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
  const s = new VrpStore({ source: vrpSource(location, network, timeoutMs), log, refreshMs: 3_600_000, retryMs: 3_600_000, timeoutMs, ...options })
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
      const s = store(location)
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
