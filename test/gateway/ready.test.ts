import { describe, expect, it } from 'vitest'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { startTestApp } from '../support/app.ts'

describe('/api/ready', () => {
  it('runs every readiness check and answers 503 service_unavailable naming the failing one', async () => {
    let healthy = false
    const probe = definePlugin({
      name: 'probe',
      setup(api) {
        api.readiness('vrp-data', () => {
          if (!healthy) throw new Error('VRPs not loaded yet')
        })
        api.readiness('always', () => {})
      },
    })
    const t = await startTestApp({}, { plugins: [probe] })
    // Real plugins register checks too (ip-data loads on the first probe); this
    // test is about the probe plugin's two.
    const own = (checks: Array<{ name: string }>) => checks.filter((c) => c.name === 'vrp-data' || c.name === 'always')
    try {
      const down = await t.json('/api/ready')
      expect(down.status).toBe(503)
      expect(down.body.error.code).toBe('service_unavailable')
      expect(down.body.error.message).toContain('vrp-data (VRPs not loaded yet)')
      expect(own(down.body.error.details.checks)).toEqual([
        expect.objectContaining({ name: 'vrp-data', ok: false, error: 'VRPs not loaded yet' }),
        expect.objectContaining({ name: 'always', ok: true }),
      ])
      // liveness is unaffected
      expect((await t.json('/api/health')).status).toBe(200)
      healthy = true
      let up = await t.json('/api/ready')
      for (let i = 0; up.status !== 200 && i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        up = await t.json('/api/ready')
      }
      expect(up.status).toBe(200)
      expect(up.body.data.ready).toBe(true)
      expect(own(up.body.data.checks).map((c) => c.name)).toEqual(['vrp-data', 'always'])
    } finally {
      await t.close()
    }
  })
})
