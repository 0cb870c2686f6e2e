import { describe, expect, it } from 'vitest'
import { startUrls } from '../../plugins/web/web-start.ts'
import { parseWebTarget } from '../../registry/web/schemas/web-target.ts'

const ok = (input: string) => {
  const r = parseWebTarget(input)
  if (!r.ok) throw new Error(`${input}: ${r.reason}`)
  return r.target
}
const bad = (input: string) => {
  const r = parseWebTarget(input)
  expect(r.ok, input).toBe(false)
  return r.ok ? '' : r.reason
}

describe('the host parameter', () => {
  it('names, ports, IPs and URLs', () => {
    expect(ok('Example.COM')).toEqual({ scheme: null, hostname: 'example.com', port: null, path: '/' })
    expect(ok('example.com.:8443')).toEqual({ scheme: null, hostname: 'example.com', port: 8443, path: '/' })
    expect(ok('HTTP://bücher.example/a/../b?q=1#frag')).toEqual({ scheme: 'http', hostname: 'xn--bcher-kva.example', port: null, path: '/b?q=1' })
    expect(ok('[2001:DB8::1]:8080')).toEqual({ scheme: null, hostname: '2001:db8::1', port: 8080, path: '/' })
    expect(ok('192.0.2.1')).toMatchObject({ hostname: '192.0.2.1' })
    expect(ok('example.com/path with space'.replace(/ /g, '%20')).path).toBe('/path%20with%20space')
  })

  it('refuses what a URL parser would silently reinterpret, other schemes and credentials', () => {
    expect(bad('2130706433')).toMatch(/bare number/)
    expect(bad('0x7f000001')).toMatch(/IP address/)
    expect(bad('0x7f')).toMatch(/IP address/)
    expect(bad('0x7f.0.0.1')).toBeTruthy()
    expect(bad('127.1')).toBeTruthy()
    expect(bad('ftp://example.com')).toMatch(/scheme/)
    expect(bad('https://user:pw@example.com')).toMatch(/credentials/)
    expect(bad('example.com:0')).toMatch(/port/)
    expect(bad('exa mple.com')).toMatch(/whitespace/)
    expect(bad('[::1')).toBeTruthy()
    expect(bad('')).toMatch(/empty/)
  })

  it('start URLs: a scheme is obeyed; bare hosts try https then http, or http as typed', () => {
    expect(startUrls(ok('example.com'), 'secure-first')).toEqual(['https://example.com/', 'http://example.com/'])
    expect(startUrls(ok('example.com'), 'as-typed')).toEqual(['http://example.com/'])
    expect(startUrls(ok('example.com:80'), 'secure-first')).toEqual(['http://example.com/'])
    expect(startUrls(ok('example.com:443'), 'as-typed')).toEqual(['https://example.com/'])
    expect(startUrls(ok('example.com:8443'), 'as-typed')).toEqual(['https://example.com:8443/', 'http://example.com:8443/'])
    expect(startUrls(ok('http://example.com:8080/x'), 'secure-first')).toEqual(['http://example.com:8080/x'])
    expect(startUrls(ok('https://[2001:db8::1]/'), 'secure-first', '/robots.txt')).toEqual(['https://[2001:db8::1]/robots.txt'])
  })
})
