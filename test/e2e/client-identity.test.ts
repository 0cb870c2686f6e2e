import { Agent, request as httpRequest } from 'node:http'
import type { Socket } from 'node:net'
import type { Server } from 'srvx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen } from '../../runtime/server.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// Who the caller is, over real sockets: the pipeline works out a connection's
// address and rate-limit principal once and reuses them for every request the
// connection carries (runtime/pipeline.ts, peerOf). Here: each connection is its
// own peer (clients bind different loopback source addresses), one peer's
// connections share its budget, and behind a trusted proxy X-Forwarded-For is
// still read on every request, not once per connection.

interface Answer {
  status: number
  remaining: string | undefined
  body: { data?: { ip?: string } }
}

/** One GET over `agent` (keep-alive: requests reuse its connection), from the source address `from`. */
function get(port: number, agent: Agent, from: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent, localAddress: from, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, remaining: res.headers['ratelimit-remaining'] as string | undefined, body: JSON.parse(text) as Answer['body'] }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** An agent holding one kept-alive connection, and the local port of each request's socket (to see it was reused). */
function oneConnection(): { agent: Agent; ports: number[] } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const ports: number[] = []
  const createConnection = agent.createConnection.bind(agent)
  agent.createConnection = ((options, callback) => {
    const socket = createConnection(options, callback) as Socket
    socket.once('connect', () => ports.push(socket.localPort!))
    return socket
  }) as Agent['createConnection']
  return { agent, ports }
}

async function serve(env: Record<string, string>): Promise<{ t: TestApp; server: Server; port: number }> {
  const t = await startTestApp(env)
  const server = await listen(t, { port: 0, host: '127.0.0.1' })
  return { t, server, port: Number(new URL(server.url!).port) }
}

describe('the caller of a kept-alive connection', () => {
  let s: Awaited<ReturnType<typeof serve>>
  beforeAll(async () => {
    s = await serve({ INFRALENS_RATE_LIMITS: 'anonymous=3' })
  })
  afterAll(async () => {
    await s.server.close(true)
    await s.t.close()
  })

  it('is the connection peer on every request; peers are counted apart, and one peer across its connections as one', async () => {
    const a = oneConnection()
    const b = oneConnection()
    const a2 = oneConnection()
    try {
      // 127.0.0.2 on one connection: its own address each time, its budget spent to the last unit, then refused.
      const fromA: Answer[] = []
      for (let i = 0; i < 4; i++) fromA.push(await get(s.port, a.agent, '127.0.0.2', '/api/myip'))
      expect(a.ports).toHaveLength(1)
      expect(fromA.map((r) => r.status)).toEqual([200, 200, 200, 429])
      expect(fromA.slice(0, 3).map((r) => r.body.data?.ip)).toEqual(['127.0.0.2', '127.0.0.2', '127.0.0.2'])
      expect(fromA.map((r) => r.remaining)).toEqual(['2', '1', '0', '0'])

      // Another peer is not the first one's cached identity: its own address, a full budget.
      const fromB = await get(s.port, b.agent, '127.0.0.3', '/api/myip')
      expect(fromB.status).toBe(200)
      expect(fromB.body.data?.ip).toBe('127.0.0.3')
      expect(fromB.remaining).toBe('2')

      // 127.0.0.2 again on a new connection: the same caller, still out of budget.
      const again = await get(s.port, a2.agent, '127.0.0.2', '/api/myip')
      expect(a2.ports).toHaveLength(1)
      expect(a2.ports[0]).not.toBe(a.ports[0])
      expect(again.status).toBe(429)
    } finally {
      for (const { agent } of [a, b, a2]) agent.destroy()
    }
  })
})

describe('behind a trusted proxy', () => {
  let s: Awaited<ReturnType<typeof serve>>
  beforeAll(async () => {
    s = await serve({ INFRALENS_RATE_LIMITS: 'anonymous=2', INFRALENS_TRUST_PROXY: '127.0.0.0/8' })
  })
  afterAll(async () => {
    await s.server.close(true)
    await s.t.close()
  })

  it('reads X-Forwarded-For on every request of one connection: each client gets its own address and budget', async () => {
    const proxy = oneConnection()
    try {
      const answers: Answer[] = []
      for (const client of ['192.0.2.1', '198.51.100.7', '192.0.2.1', '192.0.2.1', '198.51.100.7']) {
        answers.push(await get(s.port, proxy.agent, '127.0.0.4', '/api/myip', { 'x-forwarded-for': client }))
      }
      expect(proxy.ports).toHaveLength(1)
      expect(answers.map((r) => r.body.data?.ip ?? null)).toEqual(['192.0.2.1', '198.51.100.7', '192.0.2.1', null, '198.51.100.7'])
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429, 200])
      expect(answers.map((r) => r.remaining)).toEqual(['1', '1', '0', '0', '0'])
    } finally {
      proxy.agent.destroy()
    }
  })
})
