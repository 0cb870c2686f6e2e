import dns from 'node:dns'
import { resolve4 as namedResolve4 } from 'node:dns'
import dnsPromises from 'node:dns/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestDnsServer } from '../support/dns-server.ts'
import { startDnsServer } from '../support/dns-server.ts'
import { TYPES_ZONE } from '../dns/test-zones.ts'

// The fence's DNS half (test/support/loopback-only.ts): the host resolver
// (getaddrinfo, and c-ares with the servers of /etc/resolv.conf) would send a
// query to the machine's DNS server, so only what stays local is let through:
// getaddrinfo of `localhost` or of an IP literal, and c-ares pointed at servers
// the test itself runs on loopback.

const FENCE = /tests may only use loopback \(test\/support\/loopback-only\.ts\)/

/** The error of a call that may throw, call back with an error, or reject. */
async function failure(call: (cb: (error: Error | null) => void) => unknown): Promise<Error | null> {
  try {
    return await new Promise<Error | null>((resolve, reject) => {
      const result = call((error) => resolve(error))
      if (result instanceof Promise) result.then(() => resolve(null), reject)
    })
  } catch (error) {
    return error as Error
  }
}

describe('the host resolver only answers for localhost', () => {
  it.each([
    ['dns.lookup', (cb: (e: Error | null) => void) => dns.lookup('example.com', cb)],
    ['dns.lookup (all)', (cb: (e: Error | null) => void) => dns.lookup('example.com', { all: true }, cb)],
    ['dns/promises lookup', () => dnsPromises.lookup('example.com')],
    ['dns.promises.lookup', () => dns.promises.lookup('sub.localhost')],
    ['dns.lookupService of an address off the box', (cb: (e: Error | null) => void) => dns.lookupService('192.0.2.1', 80, cb)],
    ['dns.promises.lookupService', () => dnsPromises.lookupService('2001:db8::1', 80)],
  ])('%s is refused', async (_name, call) => {
    expect((await failure(call))?.message).toMatch(FENCE)
  })

  it('localhost and IP literals (answered without a query) still resolve', async () => {
    expect((await dnsPromises.lookup('localhost', { all: true })).map((a) => a.address)).toEqual(expect.arrayContaining(['127.0.0.1']))
    expect(await dnsPromises.lookup('192.0.2.1')).toEqual({ address: '192.0.2.1', family: 4 })
    expect(await new Promise((resolve, reject) => dns.lookup('::1', (e, address) => (e ? reject(e) : resolve(address))))).toBe('::1')
    expect((await dnsPromises.lookupService('127.0.0.1', 22)).hostname).toBeTypeOf('string')
  })
})

describe('c-ares queries go only to servers the test runs on loopback', () => {
  let server: TestDnsServer
  let server6: TestDnsServer
  beforeAll(async () => {
    server = await startDnsServer({ zones: [TYPES_ZONE] })
    server6 = await startDnsServer({ host: '::1', zones: [TYPES_ZONE] })
  })
  afterAll(async () => {
    await server?.close()
    await server6?.close()
  })

  const withServers = <R extends { setServers(s: string[]): void }>(resolver: R, servers: string[]) => {
    resolver.setServers(servers)
    return resolver
  }

  it.each([
    // the machine's own servers (/etc/resolv.conf), even one on loopback such as a 127.0.0.53 stub: they forward
    ['dns.resolve4 (the default resolver)', (cb: (e: Error | null) => void) => dns.resolve4('example.com', cb)],
    ['the named ESM export resolve4', (cb: (e: Error | null) => void) => namedResolve4('example.com', cb)],
    ['dns.resolve (rrtype)', (cb: (e: Error | null) => void) => dns.resolve('example.com', 'MX', cb)],
    ['dns.reverse', (cb: (e: Error | null) => void) => dns.reverse('192.0.2.1', cb)],
    ['dns/promises resolveTxt', () => dnsPromises.resolveTxt('example.com')],
    ['a new dns.Resolver (starts with the machine servers)', (cb: (e: Error | null) => void) => new dns.Resolver().resolve6('example.com', cb)],
    ['a new dns/promises Resolver', () => new dnsPromises.Resolver().resolveAny('example.com')],
    ['a Resolver pointed at 192.0.2.1', (cb: (e: Error | null) => void) => withServers(new dns.Resolver(), ['192.0.2.1']).resolve4('example.com', cb)],
    ['a promises Resolver pointed at [2001:db8::1]:53', () => withServers(new dnsPromises.Resolver(), ['[2001:db8::1]:53']).resolveNs('example.com')],
    ['a Resolver with one loopback and one outside server', () => withServers(new dnsPromises.Resolver(), [`127.0.0.1:${server.port}`, '192.0.2.1']).resolve4('types.test')],
  ])('%s is refused', async (_name, call) => {
    const before = server.log.length
    expect((await failure(call))?.message).toMatch(FENCE)
    expect(server.log.length).toBe(before)
  })

  it('a Resolver pointed at the test server on loopback is answered', async () => {
    const resolver = withServers(new dnsPromises.Resolver({ timeout: 1000, tries: 1 }), [`${server.host}:${server.port}`])
    expect(await resolver.resolveTxt('types.test')).toEqual([['v=spf1 ip4:192.0.2.0/24 ', '-all']])
    expect(server.log.at(-1)).toMatchObject({ name: 'types.test', type: 'TXT' })
    const callbacks = withServers(new dns.Resolver({ timeout: 1000, tries: 1 }), [`[::1]:${server6.port}`])
    const ns = await new Promise<string[]>((resolve, reject) => callbacks.resolveNs('types.test', (e, names) => (e ? reject(e) : resolve(names))))
    expect(ns).toContain('ns1.types.test')
    expect(server6.log.at(-1)).toMatchObject({ name: 'types.test', type: 'NS', from: { address: '::1' } })
  })
})
