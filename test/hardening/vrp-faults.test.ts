import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { FakeVrp, VrpFault } from '../support/fake-vrp.ts'
import { startFakeVrp, untilVrpsLoaded } from '../support/fake-vrp.ts'

// The fault matrix row of the VRP source. The VRP set is loaded in the background,
// not per request, so a failing source never makes a request wait: /api/rpki is
// a 503 saying why (still loading, or could not be loaded and from where), readiness
// says the same, and everything else keeps answering. (A failed refresh after a
// good load keeps the old set: test/routing/vrp-store.test.ts.)

type Check = { name: string; ok: boolean; degraded?: string; error?: string }

let vrp: FakeVrp
beforeAll(async () => {
  vrp = await startFakeVrp()
})
afterAll(() => vrp.close())

async function rpkiCheck(t: TestApp): Promise<{ status: number; check: Check | undefined }> {
  const res = await t.json('/api/ready')
  const checks = (res.body.data?.checks ?? res.body.error?.details?.checks ?? []) as Check[]
  return { status: res.status, check: checks.find((c) => c.name === 'rpki-vrps') }
}

async function withApp(fault: VrpFault, body: (t: TestApp) => Promise<void>): Promise<void> {
  vrp.setFault(fault)
  const t = await startTestApp({ ...vrp.env, INFRALENS_RATE_LIMITS: 'anonymous=100000' })
  try {
    await body(t)
    expect((await t.json('/api/health')).status).toBe(200)
    expect((await t.json('/api/uuid')).status).toBe(200)
    expect(t.logs.filter((l) => l.msg === 'unhandled error')).toEqual([])
  } finally {
    vrp.setFault(null)
    await t.close()
  }
}

describe('VRP source faults at start-up', () => {
  const failing: Array<[string, VrpFault, RegExp]> = [
    ['reset', { kind: 'reset' }, /.+/],
    ['garbage (an HTML page)', { kind: 'garbage' }, /not a VRP export/],
    ['truncated JSON', { kind: 'truncated' }, /not a VRP export/],
    ['5xx', { kind: 'status', status: 503 }, /HTTP 503/],
  ]
  for (const [name, fault, reason] of failing) {
    it(`${name}: /api/rpki is a 503 naming the source and the error; readiness degraded, not failed`, async () => {
      await withApp(fault, async (t) => {
        let r = await rpkiCheck(t)
        // (other data loads too: wait for the whole of readiness, not just this check)
        for (let i = 0; i < 200 && (r.check?.ok !== true || r.status !== 200); i++) {
          await new Promise((resolve) => setTimeout(resolve, 50))
          r = await rpkiCheck(t)
        }
        expect(r.status).toBe(200)
        expect(r.check).toMatchObject({ ok: true, degraded: expect.stringContaining(vrp.url) })
        const started = Date.now()
        const res = await t.json('/api/rpki/193.0.0.0/21?asn=3333')
        expect(Date.now() - started).toBeLessThan(1000)
        expect(res.status).toBe(503)
        expect(res.body.error).toMatchObject({ code: 'service_unavailable', details: { data: 'vrps', source: vrp.url, last_error: expect.stringMatching(reason) } })
      })
    })
  }

  const slow: Array<[string, VrpFault]> = [
    ['timeout', { kind: 'timeout' }],
    ['slow drip', { kind: 'drip', bytes: 16, intervalMs: 200 }],
  ]
  for (const [name, fault] of slow) {
    it(`${name}: /api/rpki answers at once with a 503 "still loading"; readiness fails until the set is there`, async () => {
      await withApp(fault, async (t) => {
        const r = await rpkiCheck(t)
        expect(r.status).toBe(503)
        expect(r.check).toMatchObject({ ok: false, error: expect.stringContaining(`loading VRPs from ${vrp.url}`) })
        const started = Date.now()
        const res = await t.json('/api/rpki/193.0.0.0/21?asn=3333')
        expect(Date.now() - started).toBeLessThan(1000)
        expect(res.status).toBe(503)
        expect(res.body.error.message).toMatch(/still loading/)
      })
    })
  }

  it('a good source after all: the same app shape answers RPKI (the rows above fail for the fault, not the setup)', async () => {
    const t = await startTestApp({ ...vrp.env })
    try {
      await untilVrpsLoaded(t)
      expect((await t.json('/api/rpki/193.0.0.0/21?asn=3333')).body.data.origins[0].state).toBe('valid')
    } finally {
      await t.close()
    }
  })
})
