import { describe, expect, it } from 'vitest'
import { startTestApp } from '../support/app.ts'

describe('request deadline', () => {
  it('upstream work past INFRALENS_REQUEST_TIMEOUT_MS is a 504 timeout, and the work is cancelled', async () => {
    const t = await startTestApp({ INFRALENS_REQUEST_TIMEOUT_MS: '200' })
    try {
      const started = Date.now()
      const res = await t.json('/api/test/slow?ms=5000')
      expect(Date.now() - started).toBeLessThan(1500)
      expect(res.status).toBe(504)
      expect(res.body.error).toMatchObject({ code: 'timeout', details: { timeout_ms: 200 } })
      expect(t.slowSignals.at(-1)!.aborted).toBe(true)
      const fast = await t.json('/api/test/slow?ms=10')
      expect(fast.status).toBe(200)
      expect(fast.body.data.aborted).toBe(false)
    } finally {
      await t.close()
    }
  })
})
