import net from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { RedirectsData } from '../../registry/web/schemas/redirects-data.ts'
import { startTestApp } from '../support/app.ts'
import type { WebWorld } from './web-world.ts'
import { startWebWorld } from './web-world.ts'

let w: WebWorld
beforeAll(async () => {
  w = await startWebWorld()
})
afterAll(async () => {
  await w.close()
})

// Every socket the process dials, by target: the proof a refused hop was never connected to.
let dialed: string[] = []
const original = net.Socket.prototype.connect
function spyOnDials() {
  dialed = []
  vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
    const first = (Array.isArray(args[0]) ? args[0][0] : args[0]) as { host?: string } | undefined
    if (first && typeof first === 'object' && first.host) dialed.push(first.host)
    return (original as (...a: unknown[]) => net.Socket).apply(this, args)
  } as typeof original)
}
afterEach(() => {
  vi.restoreAllMocks()
})

const chain = async (host: string) => {
  const res = await w.t.json(`/api/web/redirects/${encodeURIComponent(host)}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(RedirectsData.safeParse(res.body.data).success).toBe(true)
  return res.body.data
}

describe('/api/web/redirects', () => {
  it('follows http -> https -> another path -> another host, flags the upgrade', async () => {
    const d = await chain(`http://chain.web.test:${w.web.httpPort}/`)
    expect(d.hops.map((h: { status: number }) => h.status)).toEqual([301, 302, 307, 200])
    expect(d.hops[0]).toMatchObject({ url: `http://chain.web.test:${w.web.httpPort}/`, location: `https://chain.web.test:${w.web.httpsPort}/1`, upgrade_to_https: true, http_version: '1.1' })
    expect(d.hops[1]).toMatchObject({ location: '/2', next_url: `https://chain.web.test:${w.web.httpsPort}/2`, http_version: '2' })
    expect(d.hops[2]).toMatchObject({ cross_host: true })
    expect(d).toMatchObject({ stopped: 'final', https_upgrade: true, https_downgrade: false, cross_host: true, hop_count: 4, redirect_count: 3, final_status: 200, final_url: `https://good.web.test:${w.web.httpsPort}/` })
  })

  it('a bare host:port is tried over https, then http (as typed, the chain starts where the site answers)', async () => {
    const d = await chain(`good.web.test:${w.web.httpPort}`)
    expect(d.fallback).toMatchObject({ from_url: `https://good.web.test:${w.web.httpPort}/` })
    expect(d.start_url).toBe(`http://good.web.test:${w.web.httpPort}/`)
    expect(d.https_upgrade).toBe(true)
  })

  it('a downgrade from https to http is flagged', async () => {
    const d = await chain(`https://chain.web.test:${w.web.httpsPort}/down`)
    expect(d).toMatchObject({ https_downgrade: true, https_upgrade: false, stopped: 'final' })
    expect(d.hops[0].downgrade_to_http).toBe(true)
  })

  it('a loop is detected at the first repeated URL', async () => {
    const d = await chain(`https://loop.web.test:${w.web.httpsPort}/a`)
    expect(d.stopped).toBe('loop')
    expect(d.hops).toHaveLength(2)
    expect(d.stop_message).toContain(`https://loop.web.test:${w.web.httpsPort}/a`)
  })

  it('stops after 10 requests', async () => {
    const before = w.web.requests.length
    const d = await chain(`https://many.web.test:${w.web.httpsPort}/0`)
    expect(d).toMatchObject({ stopped: 'too_many_redirects', hop_count: 10, max_hops: 10 })
    expect(w.web.requests.length - before).toBe(10)
  })

  it.each([
    ['metadata', '169.254.169.254', 'http://169.254.169.254/latest/meta-data/'],
    ['internal', '10.1.2.3', 'http://internal.web.test/admin'],
    ['linklocal-name', '169.254.169.254', 'http://metadata.web.test/'],
    ["mapped", "::ffff:a00:1", "http://[::ffff:a00:1]/"],
  ])('a redirect to a private address (%s) is the last hop, refused without a connection', async (path, address, url) => {
    spyOnDials()
    const d = await chain(`https://private.web.test:${w.web.httpsPort}/${path}`)
    expect(d.stopped).toBe('blocked')
    expect(d.hops).toHaveLength(2)
    expect(d.hops[1]).toMatchObject({ url, status: null, blocked: true, error: { reason: 'blocked' } })
    expect(d.hops[1].error.message).toMatch(/Refusing to connect/)
    expect(d.hops[1].address).toBe(address)
    expect(d.final_url).toBe(`https://private.web.test:${w.web.httpsPort}/${path}`)
    // the first hop was dialed (the fake's address); nothing outside loopback was
    expect(dialed).toContain(w.web.address)
    expect(dialed).not.toContain(address)
    expect(dialed.every((h) => h.startsWith('127.'))).toBe(true)
  })

  it('a name with one private address among allowed ones is refused as a whole (no connection to the fake either)', async () => {
    const connectionsBefore = w.web.connections.length
    spyOnDials()
    const d = await chain(`https://private.web.test:${w.web.httpsPort}/mixed`)
    expect(d.stopped).toBe('blocked')
    expect(d.hops[1]).toMatchObject({ blocked: true, address: '10.0.0.9' })
    // one connection for the first hop, none for the refused one
    expect(w.web.connections.length - connectionsBefore).toBe(1)
    expect(dialed.filter((h) => h === w.web.address)).toHaveLength(1)
  })

  it('non-http Locations, missing Locations and dead names end the chain in a reported way', async () => {
    expect(await chain(`https://private.web.test:${w.web.httpsPort}/ftp`)).toMatchObject({ stopped: 'invalid_location', hop_count: 1 })
    const bare = await chain(`https://private.web.test:${w.web.httpsPort}/no-location`)
    expect(bare).toMatchObject({ stopped: 'final', final_status: 302 })
    expect(bare.stop_message).toMatch(/without a Location/)
    const dead = await chain(`https://private.web.test:${w.web.httpsPort}/nowhere`)
    expect(dead).toMatchObject({ stopped: 'error' })
    expect(dead.hops[1]).toMatchObject({ blocked: false, error: { reason: 'not_found' } })
  })

  it('a hop that never answers ends the chain with a timeout inside the request deadline (no 504)', async () => {
    const t = await startTestApp({ ...w.dns.env, INFRALENS_EXTRA_CA_FILE: w.ca.caFile, INFRALENS_REQUEST_TIMEOUT_MS: '2000', INFRALENS_CACHE_MAX_ENTRIES: '0' })
    try {
      const started = Date.now()
      const res = await t.json(`/api/web/redirects/${encodeURIComponent(`https://private.web.test:${w.web.httpsPort}/slow`)}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.data).toMatchObject({ stopped: 'error' })
      expect(res.body.data.hops[1].error.reason).toBe('timeout')
      expect(Date.now() - started).toBeLessThan(2000)
    } finally {
      await t.close()
    }
  })

  it('the first target itself: private is 400, unreachable is 502', async () => {
    expect((await w.t.json('/api/web/redirects/169.254.169.254')).status).toBe(400)
    expect((await w.t.json(`/api/web/redirects/${encodeURIComponent('http://good.web.test:1/')}`)).status).toBe(502)
  })
})
