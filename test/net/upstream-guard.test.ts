import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
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
