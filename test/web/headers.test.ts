import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WebWorld } from './web-world.ts'
import { startWebWorld } from './web-world.ts'

let w: WebWorld
beforeAll(async () => {
  w = await startWebWorld()
})
afterAll(async () => {
  await w.close()
})

const get = (path: string) => w.t.json(path)

describe('/api/web/headers', () => {
  it('reports status, HTTP/2 via ALPN, headers in order, timing and the trusted TLS session', async () => {
    const res = await get(`/api/web/headers/${w.web.https('good.web.test')}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const d = res.body.data
    expect(d).toMatchObject({
      host: `good.web.test:${w.web.httpsPort}`,
      url: `https://good.web.test:${w.web.httpsPort}/`,
      final_url: `https://good.web.test:${w.web.httpsPort}/`,
      status: 200,
      http_version: '2',
      address: w.web.address,
      port: w.web.httpsPort,
      stopped: 'final',
      redirects: [],
      fallback: null,
      tls: { alpn: 'h2', authorized: true, authorization_error: null },
    })
    expect(d.tls.protocol).toMatch(/^TLSv1\.[23]$/)
    const names = d.headers.map((h: { name: string }) => h.name)
    expect(names).toContain('strict-transport-security')
    // repeated headers stay separate
    expect(d.headers.filter((h: { name: string }) => h.name === 'set-cookie')).toHaveLength(2)
    for (const k of ['dns_ms', 'connect_ms', 'tls_ms', 'first_byte_ms', 'download_ms', 'total_ms']) expect(d.timing[k]).toBeGreaterThanOrEqual(0)
    expect(d.timing.total_ms).toBeGreaterThanOrEqual(d.timing.first_byte_ms)
    expect(d.body).toMatchObject({ truncated: false, bytes_read: 22, content_type: 'text/html; charset=utf-8' })
    // the request carried our User-Agent
    expect(w.web.requests.at(-1)!.userAgent).toMatch(/infralens/)
  })

  it('HTTP/1.1 over TLS when the server offers no h2', async () => {
    const d = (await get(`/api/web/headers/${w.h1.https('h1.web.test')}`)).body.data
    expect(d).toMatchObject({ status: 200, http_version: '1.1', status_text: 'OK', tls: { alpn: 'http/1.1', authorized: true } })
    expect(d.headers).toContainEqual({ name: 'x-test', value: 'h1' })
  })

  it('a URL: the scheme decides; http has no TLS timing; redirects are followed to the final page', async () => {
    const d = (await get(`/api/web/headers/${encodeURIComponent(`http://chain.web.test:${w.web.httpPort}/`)}`)).body.data
    // the http hop is on the plain port: the chain moves to https on the other port
    expect(d.url).toBe(`http://chain.web.test:${w.web.httpPort}/`)
    expect(d.final_url).toBe(`https://good.web.test:${w.web.httpsPort}/`)
    expect(d.redirects.map((h: { status: number }) => h.status)).toEqual([301, 302, 307])
    expect(d.redirects[0].upgrade_to_https).toBe(true)
    const plain = (await get(`/api/web/headers?host=${encodeURIComponent(`http://plain.web.test:${w.web.httpPort}/`)}`)).body.data
    expect(plain).toMatchObject({ http_version: '1.1', tls: null, timing: { tls_ms: null } })
  })

  it('URL forms: unencoded in ?host=, a path after the host, and a scheme whose "//" a proxy collapsed', async () => {
    const query = await get(`/api/web/headers?host=https://good.web.test:${w.web.httpsPort}/`)
    expect(query.status).toBe(200)
    expect(query.body.data.final_url).toBe(`https://good.web.test:${w.web.httpsPort}/`)
    const path = await get(`/api/web/headers/good.web.test:${w.web.httpsPort}/missing`)
    expect(path.body.data).toMatchObject({ url: `https://good.web.test:${w.web.httpsPort}/missing`, status: 404 })
    const collapsed = await get(`/api/web/headers/https:/good.web.test:${w.web.httpsPort}`)
    expect(collapsed.body.data.final_url).toBe(`https://good.web.test:${w.web.httpsPort}/`)
  })

  it('a bare host whose https fails falls back to http and says so', async () => {
    // on the plain http port the TLS handshake fails; the fallback asks http on the same port
    const res = await get(`/api/web/headers/plain.web.test:${w.web.httpPort}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data.fallback).toMatchObject({ from_url: `https://plain.web.test:${w.web.httpPort}/`, to_url: `http://plain.web.test:${w.web.httpPort}/` })
    expect(res.body.data.final_url).toBe(`http://plain.web.test:${w.web.httpPort}/`)
  })

  it('a large body is read up to the limit and the connection closed, not downloaded', async () => {
    const started = Date.now()
    const res = await get(`/api/web/headers/${w.web.https('big.web.test')}`)
    expect(res.status).toBe(200)
    expect(res.body.data.body).toMatchObject({ truncated: true, bytes_read: 256 * 1024, read_limit: 256 * 1024, content_length: 50 * 1024 * 1024 })
    expect(Date.now() - started).toBeLessThan(5000)
    await new Promise((r) => setTimeout(r, 200))
    const log = w.web.bigBodies.at(-1)!
    expect(log.closedEarly).toBe(true)
    expect(log.written).toBeLessThan(50 * 1024 * 1024)
  })

  it('an untrusted certificate is reported, not fatal', async () => {
    // h1-wrong.web.test points at the h1 server, whose certificate names only h1.web.test
    const res = await get(`/api/web/headers/${encodeURIComponent(`https://h1-wrong.web.test:${w.h1.httpsPort}/`)}`)
    expect(res.status).toBe(200)
    expect(res.body.data.tls).toMatchObject({ authorized: false })
    expect(res.body.data.tls.authorization_error).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID|altname|Hostname/i)
    expect(res.body.data.status).toBe(404)
  })

  it('errors: a private target named by the caller is 400; no address is 404; a dead port is 502', async () => {
    const blocked = await get('/api/web/headers/10.0.0.1')
    expect(blocked.status).toBe(400)
    expect(blocked.body.error.details).toMatchObject({ reason: 'blocked' })
    const none = await get('/api/web/headers/nowhere.web.test')
    expect(none.status).toBe(404)
    // the server refuses the handshake for this name: https:// given, so no fallback
    const tls = await get(`/api/web/headers/${encodeURIComponent(`https://plain.web.test:${w.web.httpsPort}/`)}`)
    expect(tls.status).toBe(502)
    expect(tls.body.error.details).toMatchObject({ upstream: 'web', phase: 'tls' })
    const dead = await get(`/api/web/headers/${encodeURIComponent('https://good.web.test:1/')}`)
    expect(dead.status).toBe(502)
    expect(dead.body.error.details).toMatchObject({ upstream: 'web', reason: 'refused', phase: 'connect' })
  })

  it('bad input: numeric host forms, other schemes, credentials', async () => {
    for (const host of ['2130706433', '0x7f.0.0.1', 'ftp%3A%2F%2Fexample.com', 'user%40example.com', 'example.com%3A99999']) {
      const res = await get(`/api/web/headers/${host}`)
      expect(res.status, host).toBe(400)
      expect(res.body.error.details.param).toBe('host')
    }
  })

  it('csv rows are the headers', async () => {
    const res = await w.t.request(`/api/web/headers/${w.web.https('good.web.test')}?format=csv&fields=headers`)
    const text = await res.text()
    expect(text.split(/\r?\n/)[0]).toBe('headers.name,headers.value')
    expect(text).toContain('x-content-type-options,nosniff')
  })
})
