import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { FakeRipestat } from '../support/fake-ripestat.ts'
import { startFakeRipestat } from '../support/fake-ripestat.ts'
import type { FakeVrp } from '../support/fake-vrp.ts'
import { RPKI_FIXTURES, expiriesFromNow, readRpkiFixture, startFakeVrp, untilVrpsLoaded } from '../support/fake-vrp.ts'

// Start-up with the VRP source in every state: unreachable (the default public
// URL, offline), slow, and a local file. The service always starts and answers
// everything but RPKI; readiness waits only for the first attempt.

type Check = { name: string; ok: boolean; degraded?: string; error?: string }
const rpkiCheck = async (t: TestApp): Promise<{ status: number; check: Check | undefined }> => {
  const res = await t.json('/api/ready')
  const checks = (res.body.data?.checks ?? res.body.error?.details?.checks ?? []) as Check[]
  return { status: res.status, check: checks.find((c) => c.name === 'rpki-vrps') }
}

let ripestat: FakeRipestat
beforeAll(async () => {
  ripestat = await startFakeRipestat()
})
afterAll(() => ripestat.close())

describe('the default VRP URL is unreachable (offline)', () => {
  let t: TestApp
  beforeAll(async () => {
    // The public default URL, which the test app's DNS (a closed port) cannot resolve.
    t = await startTestApp({ ...ripestat.env, INFRALENS_VRP_URL: 'https://console.rpki-client.org/vrps.json' })
  })
  afterAll(() => t.close())

  it('starts, and answers the other endpoints', async () => {
    expect((await t.json('/api/uuid')).status).toBe(200)
    expect((await t.json('/api/bgp/prefix/193.0.0.0/21')).status).toBe(200)
  })

  it('reports ready but degraded once the first attempt failed, naming the source', async () => {
    let r = await rpkiCheck(t)
    for (let i = 0; i < 100 && r.check?.ok !== true; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      r = await rpkiCheck(t)
    }
    expect(r.check).toMatchObject({ ok: true, degraded: expect.stringMatching(/no VRP set .*https:\/\/console\.rpki-client\.org\/vrps\.json/) })
  })

  it('/api/rpki is a 503 saying why', async () => {
    const res = await t.json('/api/rpki/193.0.0.0/21?asn=3333')
    expect(res.status).toBe(503)
    expect(res.body.error).toMatchObject({
      code: 'service_unavailable',
      message: expect.stringMatching(/RPKI validation is unavailable: no VRP set could be loaded from https:\/\/console\.rpki-client\.org\/vrps\.json \(.+\); retrying in the background/),
      details: { data: 'vrps', source: 'https://console.rpki-client.org/vrps.json', last_error: expect.any(String), next_attempt_in_s: expect.any(Number) },
    })
  })
})

describe('a slow VRP source', () => {
  let vrp: FakeVrp
  beforeAll(async () => {
    vrp = await startFakeVrp()
  })
  afterAll(() => vrp.close())

  it('readiness fails while the first load is under way (and RPKI is a 503 "still loading"), then passes', async () => {
    vrp.setFault({ kind: 'drip', bytes: 4096, intervalMs: 40 }, 1)
    const t = await startTestApp({ ...vrp.env })
    try {
      const during = await rpkiCheck(t)
      expect(during.status).toBe(503)
      expect(during.check).toMatchObject({ ok: false, error: expect.stringMatching(/^loading VRPs from http:\/\/127\.0\.0\.47/) })
      const rpki = await t.json('/api/rpki/193.0.0.0/21?asn=3333')
      expect(rpki.status).toBe(503)
      expect(rpki.body.error.message).toMatch(/still loading/)
      await untilVrpsLoaded(t)
      expect((await t.json('/api/rpki/193.0.0.0/21?asn=3333')).body.data.origins[0].state).toBe('valid')
    } finally {
      await t.close()
    }
  })
})

describe('a VRP file', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vrp-files-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('INFRALENS_VRP_URL may be a path: Routinator and rpki-client files alike', async () => {
    for (const [file, prefix, asn, ta] of [
      ['stayrtr_test.rpki.json', '192.0.2.0/24', 1, 'lmao'],
      ['routinator_jsonext_2025-03-09_excerpt.json', '1.0.0.0/24', 13335, null],
    ] as const) {
      // The recordings' VRPs expire (2025, 2027): served as if generated today.
      const path = join(dir, file)
      writeFileSync(path, JSON.stringify(expiriesFromNow(readRpkiFixture(file))))
      const t = await startTestApp({ INFRALENS_VRP_URL: path })
      try {
        await untilVrpsLoaded(t)
        const res = await t.json(`/api/rpki/${prefix}?asn=${asn}`)
        expect(res.body.data.origins[0]).toMatchObject({ state: 'valid', matched: [{ prefix, asn, ta }] })
        expect(res.body.data.vrp_set).toMatchObject({ source: path, expired_dropped: 0 })
      } finally {
        await t.close()
      }
    }
  })

  it('a recorded file as it is: its VRPs have long expired, so the set is refused with the reason', async () => {
    const t = await startTestApp({ INFRALENS_VRP_URL: join(RPKI_FIXTURES, 'routinator_jsonext_2025-03-09_excerpt.json') })
    try {
      let r = await rpkiCheck(t)
      for (let i = 0; i < 100 && r.check?.ok !== true; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        r = await rpkiCheck(t)
      }
      expect(r.check?.degraded).toMatch(/every one of the export's 2 VRPs has expired \(generated 2025-03-09T21:45:54.000Z\)/)
      const res = await t.json('/api/rpki/1.0.0.0/24?asn=13335')
      expect(res.status).toBe(503)
      expect(res.body.error.message).toMatch(/every one of the export's 2 VRPs has expired/)
    } finally {
      await t.close()
    }
  })
})
