import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Server } from 'srvx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateKey, hashKey } from '../../plugins/auth/api-keys.ts'
import { listen } from '../../runtime/server.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// Anonymous IPv6 callers are limited per /64: a host picks any of its 2^64
// addresses at will. Loopback has only ::1, so the clients are presented by a
// trusted proxy (127.0.0.1) in X-Forwarded-For, over a real socket.

let t: TestApp
let server: Server
let base: string
let dir: string
const keyA = generateKey()
const keyB = generateKey()

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'infralens-rl6-'))
  await writeFile(join(dir, 'k.json'), JSON.stringify({ keys: [{ hash: hashKey(keyA), tier: 'free', label: 'a' }, { hash: hashKey(keyB), tier: 'free', label: 'b' }] }))
  t = await startTestApp({ INFRALENS_TRUST_PROXY: '127.0.0.1/32', INFRALENS_RATE_LIMITS: 'anonymous=2,free=3', INFRALENS_KEYS_FILE: join(dir, 'k.json') })
  server = await listen(t, { port: 0, host: '127.0.0.1' })
  base = server.url!.replace(/\/$/, '')
})
afterAll(async () => {
  await server.close(true)
  await t.close()
  await rm(dir, { recursive: true, force: true })
})

async function call(client: string, path = '/api/uuid', key?: string): Promise<{ status: number; remaining: string | null; body: Record<string, any> }> {
  const res = await fetch(`${base}${path}`, { headers: { 'x-forwarded-for': client, ...(key ? { 'x-api-key': key } : {}) } })
  return { status: res.status, remaining: res.headers.get('ratelimit-remaining'), body: (await res.json()) as Record<string, any> }
}

describe('anonymous limits per IPv6 /64', () => {
  it('two addresses in one /64 share one budget; the third call from that /64 is refused', async () => {
    expect(await call('2001:db8:1:2::1')).toMatchObject({ status: 200, remaining: '1' })
    expect(await call('2001:db8:1:2:ffff:ffff:ffff:ffff')).toMatchObject({ status: 200, remaining: '0' })
    const refused = await call('2001:DB8:1:2:0:0:0:abcd')
    expect(refused.status).toBe(429)
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', details: { tier: 'anonymous', limit: 2 } })
    // Unrouted requests report the same, spent, budget.
    expect(await call('2001:db8:1:2::5', '/api/no/such/thing')).toMatchObject({ status: 404, remaining: '0' })
  })

  it('an address in another /64 has its own budget', async () => {
    expect(await call('2001:db8:1:3::1')).toMatchObject({ status: 200, remaining: '1' })
    expect(await call('2001:db8:1::1')).toMatchObject({ status: 200, remaining: '1' })
  })

  it('the client address itself is still the full address', async () => {
    expect((await call('2001:db8:5:5::42', '/api/myip')).body.data).toMatchObject({ ip: '2001:db8:5:5::42', version: 6 })
  })

  it('IPv4 stays per address; IPv4-mapped IPv6 is that IPv4 address', async () => {
    expect(await call('192.0.2.1')).toMatchObject({ status: 200, remaining: '1' })
    expect(await call('::ffff:192.0.2.1')).toMatchObject({ status: 200, remaining: '0' })
    expect((await call('192.0.2.1')).status).toBe(429)
    expect(await call('192.0.2.2')).toMatchObject({ status: 200, remaining: '1' })
  })

  it('API keys stay limited per key, wherever they call from', async () => {
    // From the /64 whose anonymous budget is spent, and from two other ones.
    expect(await call('2001:db8:1:2::1', '/api/uuid', keyA)).toMatchObject({ status: 200, remaining: '2' })
    expect(await call('2001:db8:9:9::1', '/api/uuid', keyA)).toMatchObject({ status: 200, remaining: '1' })
    expect(await call('192.0.2.99', '/api/uuid', keyA)).toMatchObject({ status: 200, remaining: '0' })
    expect((await call('2001:db8:8:8::1', '/api/uuid', keyA)).status).toBe(429)
    expect(await call('2001:db8:1:2::1', '/api/uuid', keyB)).toMatchObject({ status: 200, remaining: '2' })
  })
})
