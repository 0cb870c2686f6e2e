import { describe, expect, it } from 'vitest'
import { startTestApp } from '../support/app.ts'

describe('GET /api/data/resolvers', () => {
  it('lists the configured propagation resolvers and says where they come from', async () => {
    const t = await startTestApp({ INFRALENS_PROPAGATION_RESOLVERS: 'alpha=127.0.0.2:5353,beta=[::1]:53,gamma=127.0.0.3' })
    try {
      const res = await t.json('/api/data/resolvers')
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({
        source: expect.objectContaining({ name: 'INFRALENS_PROPAGATION_RESOLVERS' }),
        count: 3,
        resolvers: [
          { name: 'alpha', address: '127.0.0.2', port: 5353, version: 4 },
          { name: 'beta', address: '::1', port: 53, version: 6 },
          { name: 'gamma', address: '127.0.0.3', port: 53, version: 4 },
        ],
      })
      const csv = (await (await t.request('/api/data/resolvers?format=csv&fields=resolvers')).text()).trim().split('\r\n')
      expect(csv).toEqual(['resolvers.name,resolvers.address,resolvers.port,resolvers.version', 'alpha,127.0.0.2,5353,4', 'beta,::1,53,6', 'gamma,127.0.0.3,53,4'])
    } finally {
      await t.close()
    }
  })
})
