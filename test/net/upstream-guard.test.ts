import { createServer } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { UpstreamError } from '../../runtime/errors.ts'
import { createGuardedNetwork } from '../../runtime/net/guarded-network.ts'
import { createUpstreamGuard } from '../../runtime/net/upstream-guard.ts'

const fail = () => Promise.reject(new UpstreamError('x', 'timeout', 'timed out'))
const ok = () => Promise.resolve('fine')

describe('circuit breaker', () => {
  it('opens after N failures in a row, fails fast while open, probes once, closes on success', async () => {
    let clock = 0
    const guard = createUpstreamGuard({ threshold: 3, openMs: 1000, maxConcurrent: 10, now: () => clock })
    let calls = 0
    const counted = (f: () => Promise<string>) => () => {
      calls++
      return f()
    }
    for (let i = 0; i < 3; i++) await expect(guard.run('k', 'x', counted(fail))).rejects.toMatchObject({ details: { reason: 'timeout' } })
    expect(guard.state('k')).toBe('open')
    await expect(guard.run('k', 'x', counted(ok))).rejects.toMatchObject({ status: 502, details: { upstream: 'x', reason: 'unavailable', circuit: 'open' } })
    expect(calls).toBe(3)
    clock = 1000
    expect(guard.state('k')).toBe('half-open')
    // the probe fails: open again for another period
    await expect(guard.run('k', 'x', counted(fail))).rejects.toMatchObject({ details: { reason: 'timeout' } })
    expect(guard.state('k')).toBe('open')
    clock = 2500
    expect(await guard.run('k', 'x', counted(ok))).toBe('fine')
    expect(guard.state('k')).toBe('closed')
    expect(calls).toBe(5)
  })

  it('a success resets the count; bad input is not an upstream failure; keys are independent', async () => {
    const guard = createUpstreamGuard({ threshold: 2, openMs: 1000, maxConcurrent: 10 })
    await guard.run('a', 'x', fail).catch(() => {})
    await guard.run('a', 'x', ok)
    await guard.run('a', 'x', fail).catch(() => {})
    expect(guard.state('a')).toBe('closed')
    for (let i = 0; i < 5; i++) await guard.run('a', 'x', () => Promise.reject(new Error('a bug, not the upstream'))).catch(() => {})
    expect(guard.state('a')).toBe('closed')
    await guard.run('b', 'x', fail).catch(() => {})
    await guard.run('b', 'x', fail).catch(() => {})
    expect(guard.state('b')).toBe('open')
    expect(guard.state('a')).toBe('closed')
  })

  it('bounds concurrent calls per key; waiting callers run in turn', async () => {
    const guard = createUpstreamGuard({ threshold: 5, openMs: 1000, maxConcurrent: 2 })
    let inFlight = 0
    let peak = 0
    const slow = async () => {
      inFlight++
      peak = Math.max(peak, inFlight)
      await new Promise((r) => setTimeout(r, 30))
      inFlight--
      return 'done'
    }
    const results = await Promise.all(Array.from({ length: 7 }, () => guard.run('k', 'x', slow)))
    expect(results).toEqual(Array(7).fill('done'))
    expect(peak).toBe(2)
  })

  it('a waiting caller gives up when its signal aborts', async () => {
    const guard = createUpstreamGuard({ threshold: 5, openMs: 1000, maxConcurrent: 1 })
    const hold = guard.run('k', 'x', () => new Promise((r) => setTimeout(() => r('held'), 200)))
    const controller = new AbortController()
    const waiter = guard.run('k', 'x', ok, controller.signal)
    controller.abort(new Error('client went away'))
    await expect(waiter).rejects.toThrow('client went away')
    expect(await hold).toBe('held')
    expect(await guard.run('k', 'x', ok)).toBe('fine')
  })
})

describe('through the guarded network', () => {
  it('5xx responses open the circuit; the upstream then sees no more requests until the probe', async () => {
    let hits = 0
    let healthy = false
    const server = createServer((_req, res) => {
      hits++
      res.statusCode = healthy ? 200 : 503
      res.end(healthy ? 'ok' : 'down')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`
    const net = createGuardedNetwork({
      policy: { allowLoopback: true },
      lookup: async () => [],
      guard: createUpstreamGuard({ threshold: 3, openMs: 150, maxConcurrent: 4 }),
    })
    try {
      for (let i = 0; i < 3; i++) expect((await net.request(url, { upstream: 'rdap' })).status).toBe(503)
      await expect(net.request(url, { upstream: 'rdap' })).rejects.toMatchObject({ details: { upstream: 'rdap', reason: 'unavailable' } })
      expect(hits).toBe(3)
      // calls without an upstream name are not guarded (targets a user asked about)
      expect((await net.request(url)).status).toBe(503)
      expect(hits).toBe(4)
      healthy = true
      await new Promise((r) => setTimeout(r, 200))
      expect((await net.request(url, { upstream: 'rdap' })).status).toBe(200)
      expect((await net.request(url, { upstream: 'rdap' })).status).toBe(200)
    } finally {
      server.close()
    }
  })
})

describe('for callers with alternatives: available() and attempt()', () => {
  it('attempt() always runs and records; available() is false while open, true once the probe is due; a success closes', async () => {
    let clock = 0
    const guard = createUpstreamGuard({ threshold: 2, openMs: 1000, maxConcurrent: 10, now: () => clock })
    let calls = 0
    const boom = () => {
      calls++
      return Promise.reject(new Error('no answer'))
    }
    for (let i = 0; i < 2; i++) await expect(guard.attempt('r', boom)).rejects.toThrow('no answer')
    expect(guard.state('r')).toBe('open')
    expect(guard.available('r')).toBe(false)
    // a caller out of alternatives may still try: it is not refused, and a failure keeps the circuit open
    await expect(guard.attempt('r', boom)).rejects.toThrow('no answer')
    expect(calls).toBe(3)
    expect(guard.available('r')).toBe(false)
    clock = 1000
    expect(guard.available('r')).toBe(true)
    // the probe is claimed when it starts: nobody else is sent while it runs
    let finish!: (v: string) => void
    const probe = guard.attempt('r', () => new Promise<string>((resolve) => (finish = resolve)))
    await Promise.resolve()
    expect(guard.state('r')).toBe('half-open')
    expect(guard.available('r')).toBe(false)
    finish('answer')
    expect(await probe).toBe('answer')
    expect(guard.state('r')).toBe('closed')
    expect(guard.available('r')).toBe(true)
  })

  it('a probe whose caller gave up decides nothing: the next caller probes at once', async () => {
    let clock = 0
    const guard = createUpstreamGuard({ threshold: 1, openMs: 1000, maxConcurrent: 10, now: () => clock })
    await guard.attempt('r', fail).catch(() => {})
    clock = 1000
    const gaveUp = new Error('caller went away')
    await expect(guard.attempt('r', () => Promise.reject(gaveUp), { judge: (e) => (e === gaveUp ? 'unknown' : 'failure') })).rejects.toBe(gaveUp)
    expect(guard.available('r')).toBe(true)
    expect(guard.state('r')).toBe('half-open')
    expect(await guard.attempt('r', ok)).toBe('fine')
    expect(guard.state('r')).toBe('closed')
  })

  it('a strict caller aborted while queued for its probe does not leave the circuit half-open for ever', async () => {
    let clock = 0
    const guard = createUpstreamGuard({ threshold: 1, openMs: 1000, maxConcurrent: 1, now: () => clock })
    await guard.run('k', 'x', fail).catch(() => {})
    clock = 1000
    // the one slot is taken (by a call of another kind), so the probe queues, and its caller aborts
    const release = await guard.slot('k')
    const controller = new AbortController()
    const probe = guard.run('k', 'x', ok, controller.signal)
    controller.abort(new Error('client went away'))
    await expect(probe).rejects.toThrow('client went away')
    release()
    expect(await guard.run('k', 'x', ok)).toBe('fine')
    expect(guard.state('k')).toBe('closed')
  })
})

describe('slot(): the bound alone', () => {
  it('holds one of N slots per key until released (release twice is harmless); other keys are free', async () => {
    const guard = createUpstreamGuard({ threshold: 1, openMs: 1000, maxConcurrent: 2 })
    const a = await guard.slot('t')
    const b = await guard.slot('t')
    let third = false
    const waiting = guard.slot('t').then((release) => {
      third = true
      return release
    })
    const other = await guard.slot('u')
    await new Promise((r) => setTimeout(r, 20))
    expect(third).toBe(false)
    a()
    a()
    const c = await waiting
    expect(third).toBe(true)
    // a's double release did not free a second slot: t is full again (b and c)
    let fourth = false
    void guard.slot('t').then(() => (fourth = true))
    await new Promise((r) => setTimeout(r, 20))
    expect(fourth).toBe(false)
    b()
    await new Promise((r) => setTimeout(r, 0))
    expect(fourth).toBe(true)
    c()
    other()
  })
})

describe('targets users name: no shared breaker, a bound per target', () => {
  const listenOn = (server: ReturnType<typeof createNetServer> | ReturnType<typeof createServer>) =>
    new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)))

  it('connect() to a dead target says "refused" every time, never "circuit open"', async () => {
    const s = createNetServer()
    const port = await listenOn(s)
    await new Promise((r) => s.close(r))
    const net = createGuardedNetwork({ policy: { allowLoopback: true }, lookup: async () => [], guard: createUpstreamGuard({ threshold: 2, openMs: 60_000, maxConcurrent: 4 }) })
    for (let i = 0; i < 6; i++) await expect(net.connect({ host: '127.0.0.1', port, upstream: 'tls' })).rejects.toMatchObject({ details: { upstream: 'tls', reason: 'refused' } })
  })

  it('connect() holds a slot per target for the socket\'s life: the third of two waits until one closes; other targets do not wait', async () => {
    const open = new Set<Socket>()
    let accepted = 0
    const server = createNetServer((socket) => {
      accepted++
      open.add(socket)
      socket.on('close', () => open.delete(socket))
      socket.on('error', () => {})
    })
    const other = createNetServer((socket) => socket.on('error', () => {}))
    const [port, otherPort] = [await listenOn(server), await listenOn(other)]
    const net = createGuardedNetwork({ policy: { allowLoopback: true }, lookup: async () => [], guard: createUpstreamGuard({ threshold: 5, openMs: 1000, maxConcurrent: 2 }) })
    try {
      const first = await net.connect({ host: '127.0.0.1', port, upstream: 'web' })
      const second = await net.connect({ host: '127.0.0.1', port, upstream: 'smtp' })
      let thirdDone = false
      const third = net.connect({ host: '127.0.0.1', port, upstream: 'web' }).then((c) => ((thirdDone = true), c))
      await new Promise((r) => setTimeout(r, 100))
      expect(thirdDone).toBe(false)
      expect(accepted).toBe(2)
      const elsewhere = await net.connect({ host: '127.0.0.1', port: otherPort, upstream: 'web' })
      elsewhere.socket.destroy()
      first.socket.destroy()
      const c = await third
      expect(accepted).toBe(3)
      second.socket.destroy()
      c.socket.destroy()
      // a connect that gives up while waiting for a slot is a timeout, and frees nothing it did not hold
      const held = [await net.connect({ host: '127.0.0.1', port }), await net.connect({ host: '127.0.0.1', port })]
      await expect(net.connect({ host: '127.0.0.1', port, timeoutMs: 100, upstream: 'web' })).rejects.toMatchObject({ details: { upstream: 'web', reason: 'timeout' } })
      for (const h of held) h.socket.destroy()
      ;(await net.connect({ host: '127.0.0.1', port })).socket.destroy()
    } finally {
      for (const s of open) s.destroy()
      server.close()
      other.close()
    }
  })

  it('request({ probe: true }): every 5xx reaches the host (no breaker), and the bound applies per target', async () => {
    let hits = 0
    let inFlight = 0
    let peak = 0
    const server = createServer((_req, res) => {
      hits++
      inFlight++
      peak = Math.max(peak, inFlight)
      setTimeout(() => {
        inFlight--
        res.statusCode = 503
        res.end('down')
      }, 30)
    })
    const port = await listenOn(server)
    const net = createGuardedNetwork({ policy: { allowLoopback: true }, lookup: async () => [], guard: createUpstreamGuard({ threshold: 2, openMs: 60_000, maxConcurrent: 2 }) })
    try {
      const url = `http://127.0.0.1:${port}/.well-known/mta-sts.txt`
      for (let i = 0; i < 5; i++) expect((await net.request(url, { upstream: 'mta-sts', probe: true })).status).toBe(503)
      expect(hits).toBe(5)
      const all = await Promise.all(Array.from({ length: 6 }, () => net.request(url, { upstream: 'mta-sts', probe: true })))
      expect(all.map((r) => r.status)).toEqual(Array(6).fill(503))
      expect(peak).toBe(2)
      // the same host as a service upstream (no probe flag) does open its circuit
      for (let i = 0; i < 2; i++) await net.request(url, { upstream: 'svc' })
      await expect(net.request(url, { upstream: 'svc' })).rejects.toMatchObject({ details: { upstream: 'svc', reason: 'unavailable' } })
    } finally {
      server.close()
    }
  })
})
