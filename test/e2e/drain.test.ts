import { Agent, request as httpRequest } from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drain, listen } from '../../runtime/server.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { startLoopbackDns } from '../support/loopback-dns.ts'

// drain() (runtime/server.ts) on kept-alive connections, in process: an answer
// still being worked on when the shutdown begins is found through its connection
// and says Connection: close, so the client lets that connection go right after
// it instead of keeping it for the next request; the kept-alive connection that
// is idle meanwhile gets its next answer with Connection: close too.

interface Reply {
  status: number
  headers: IncomingHttpHeaders
  closedAfter: Promise<void>
}

function get(port: number, agent: Agent, path: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      const closedAfter = new Promise<void>((done) => res.socket.once('close', () => done()))
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, closedAfter }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

describe('drain', () => {
  let dns: LoopbackDns
  let t: TestApp
  beforeAll(async () => {
    dns = await startLoopbackDns({ timeoutMs: 3000 })
    t = await startTestApp({ ...dns.env, INFRALENS_RATE_LIMITS: 'anonymous=1000' })
  })
  afterAll(async () => {
    await t.close()
    await dns.close()
  })

  it('an answer in progress when the shutdown begins says Connection: close, and its connection ends after it', async () => {
    const server = await listen(t, { port: 0, host: '127.0.0.1' })
    const port = Number(new URL(server.url!).port)
    const slow = new Agent({ keepAlive: true, maxSockets: 1 })
    const idle = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      // A kept-alive connection answered before the shutdown: keep-alive, as usual.
      const before = await get(port, idle, '/api/uuid')
      expect(before.status).toBe(200)
      expect(before.headers.connection).toBe('keep-alive')

      // A lookup the loopback resolver holds for 800 ms is in progress when drain() starts.
      dns.resolver.setFault({ kind: 'delay', ms: 800 })
      const inProgress = get(port, slow, '/api/dns/a/drain.infralens.test')
      await new Promise((resolve) => setTimeout(resolve, 200))
      const drained = drain(server)

      // The idle connection's next request is answered, with Connection: close.
      const after = await get(port, idle, '/api/uuid')
      expect(after.status).toBe(200)
      expect(after.headers.connection).toBe('close')

      const reply = await inProgress
      expect(reply.status).toBe(200)
      expect(reply.headers.connection).toBe('close')
      await reply.closedAfter
      await after.closedAfter
      await drained
    } finally {
      dns.resolver.setFault(null)
      slow.destroy()
      idle.destroy()
      await server.close(true)
    }
  })
})
