import net from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { checkTargetText } from '../../runtime/net/target-policy.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { FakeRdap } from '../support/fake-rdap.ts'
import { startFakeRdap } from '../support/fake-rdap.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'

// RDAP URLs come from data, not from the caller: bootstrap files, "related" links,
// redirects. Each one goes through the guard like any other target, so a poisoned
// bootstrap or a hostile registry cannot make the service fetch 10.0.0.1 or the
// cloud metadata address. "Refused without dialing" is shown three ways: the
// guard's verdict in the error (reason "blocked", the refused address and why),
// a spy on every socket connect in this process (nothing but loopback is ever
// dialed), and, where the fake is the would-be target, its request log.

// Names a hostile DNS server might hand out for RDAP hosts.
const HOSTILE_ZONE = `
$ORIGIN rdap.test.
$TTL 60
@        IN SOA ns hostmaster ( 1 3600 900 604800 60 )
@        IN NS  ns
ns       IN A   127.0.0.2
metadata IN A   169.254.169.254
mixed    IN A   127.0.0.43
mixed    IN A   10.0.0.1
`

// What the public names of the bundled snapshot resolve to in this test's DNS.
const POISONED_SNAPSHOT_HOSTS = `
$ORIGIN verisign.com.
$TTL 60
@    IN SOA ns hostmaster ( 1 3600 900 604800 60 )
@    IN NS  ns
ns   IN A   127.0.0.2
rdap IN A   169.254.169.254
`

let dns: LoopbackDns
const connects: string[] = []
let spy: ReturnType<typeof vi.spyOn> | undefined

beforeAll(async () => {
  dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, HOSTILE_ZONE, POISONED_SNAPSHOT_HOSTS] })
  const original = net.Socket.prototype.connect
  spy = vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
    const first = args[0]
    const o = (Array.isArray(first) ? first[0] : first) as { host?: string } | undefined
    if (o && typeof o === 'object' && o.host) connects.push(o.host)
    return original.apply(this, args as Parameters<typeof original>)
  } as typeof original)
})
afterAll(async () => {
  spy?.mockRestore()
  await dns.close()
})

const nonLoopbackDials = () => connects.filter((h) => !/^127\.|^::1$|^localhost$/.test(h))

describe('with loopback allowed (the fake is reachable), private RDAP targets are still refused', () => {
  let rdap: FakeRdap
  let t: TestApp
  beforeAll(async () => {
    rdap = await startFakeRdap()
    // A poisoned bootstrap: every registry of these TLDs points somewhere private.
    rdap.setBootstrap('dns', {
      publication: '2024-07-25T00:00:01Z',
      services: [
        [['com'], ['http://10.0.0.1/rdap/']],
        [['net'], ['http://169.254.169.254/latest/meta-data/']],
        [['org'], ['http://metadata.rdap.test/']],
        [['info'], ['http://mixed.rdap.test/']],
        [['io'], ['http://[::ffff:10.0.0.1]/']],
        [['no'], [`${rdap.origin}/rdap.norid.no/`]],
        [['test'], [`${rdap.origin}/registry.test/`]],
      ],
    })
    t = await startTestApp({ ...dns.env, ...rdap.env, INFRALENS_CACHE_MAX_ENTRIES: '0', INFRALENS_RATE_LIMITS: 'anonymous=100000' })
  })
  afterAll(async () => {
    await t.close()
    await rdap.close()
  })
  afterEach(() => rdap.setFault(null))

  it('the guard\'s verdicts for these addresses (a pure decision, nothing dialed)', () => {
    for (const address of ['10.0.0.1', '169.254.169.254', '::ffff:10.0.0.1']) expect(checkTargetText(address, { allowLoopback: true }).allowed, address).toBe(false)
    expect(checkTargetText('127.0.0.43', { allowLoopback: true }).allowed).toBe(true)
  })

  it.each([
    ['example.com', '10.0.0.1', /Private-Use/],
    ['example.net', '169.254.169.254', /Link Local/i],
    ['example.org', 'metadata.rdap.test', /Link Local/i],
    ['example.info', 'mixed.rdap.test', /Private-Use/],
    // the URL parser writes the mapped address in hex
    ['example.io', '[::ffff:a00:1]', /IPv4-mapped|10\.0\.0\.1/i],
  ])('bootstrap entry for %s pointing at %s: 502 blocked, never dialed', async (domain, host, why) => {
    const before = nonLoopbackDials().length
    const res = await t.json(`/api/domain/registrar/${domain}`)
    expect(res.status, JSON.stringify(res.body)).toBe(502)
    expect(res.body.error.details).toMatchObject({ upstream: 'rdap', reason: 'blocked', host })
    expect(res.body.error.details.refused[0].reason).toMatch(why)
    expect(nonLoopbackDials().length).toBe(before)
  })

  it('a "related" registrar link to the metadata address is refused; the registry answer still comes back', async () => {
    rdap.serve('/registry.test/domain/victim.test', {
      objectClassName: 'domain',
      ldhName: 'victim.test',
      entities: [{ objectClassName: 'entity', handle: '9999', roles: ['registrar'] }],
      links: [{ rel: 'related', type: 'application/rdap+json', href: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' }],
    })
    const before = nonLoopbackDials().length
    const d = (await t.json('/api/domain/whois/victim.test')).body.data
    expect(d.registrar_rdap).toMatchObject({ url: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/', status: 'blocked', error: expect.stringMatching(/169\.254\.169\.254/) })
    expect(d.registrar.handle).toBe('9999')
    expect(nonLoopbackDials().length).toBe(before)
  })

  it('a "related" link to a name resolving to a private address is refused the same way', async () => {
    rdap.serve('/registry.test/domain/victim2.test', {
      objectClassName: 'domain',
      ldhName: 'victim2.test',
      entities: [{ objectClassName: 'entity', handle: '1', roles: ['registrar'] }],
      links: [{ rel: 'related', type: 'application/rdap+json', href: 'http://mixed.rdap.test/domain/victim2.test' }],
    })
    const d = (await t.json('/api/domain/whois/victim2.test')).body.data
    expect(d.registrar_rdap).toMatchObject({ status: 'blocked' })
  })

  it('a registry redirecting to a private address: 502 blocked, never dialed', async () => {
    rdap.setFault({ kind: 'redirect', location: 'http://10.0.0.1/rdap/domain/norway.no', status: 301 })
    const before = nonLoopbackDials().length
    const res = await t.json('/api/domain/age/norway.no')
    expect(res.status).toBe(502)
    expect(res.body.error.details).toMatchObject({ upstream: 'rdap', reason: 'blocked', host: '10.0.0.1', url: 'http://10.0.0.1/rdap/domain/norway.no' })
    expect(nonLoopbackDials().length).toBe(before)
  })

  it('nothing in this describe block dialed anything but loopback', () => {
    expect(connects.length).toBeGreaterThan(0)
    expect(nonLoopbackDials()).toEqual([])
  })
})

describe('with INFRALENS_ALLOW_PRIVATE_TARGETS unset (production policy)', () => {
  let rdap: FakeRdap
  let t: TestApp
  beforeAll(async () => {
    rdap = await startFakeRdap()
    const { INFRALENS_ALLOW_PRIVATE_TARGETS: _allow, ...dnsEnv } = dns.env
    t = await startTestApp({ ...dnsEnv, INFRALENS_RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl, INFRALENS_CACHE_MAX_ENTRIES: '0' })
  })
  afterAll(async () => {
    await t.close()
    await rdap.close()
  })

  it('the configured bootstrap URL on loopback is refused: the fake never sees a request, the bundled snapshot is used', async () => {
    expect(t.config.allowPrivateTargets).toBe(false)
    const res = await t.json('/api/domain/whois/example.com')
    expect(rdap.log).toEqual([])
    const fallback = t.logs.find((l) => l.msg === 'RDAP bootstrap unavailable; using the bundled snapshot')
    expect(fallback).toMatchObject({ kind: 'dns', url: `${rdap.bootstrapUrl}dns.json`, err: expect.stringMatching(/127\.0\.0\.43.*loopback/) })
    // The snapshot names https://rdap.verisign.com/com/v1/; this test's DNS says
    // rdap.verisign.com is 169.254.169.254. Refused, not dialed.
    expect(res.status).toBe(502)
    expect(res.body.error.details).toMatchObject({ upstream: 'rdap', reason: 'blocked', host: 'rdap.verisign.com', url: 'https://rdap.verisign.com/com/v1/domain/example.com' })
    expect(nonLoopbackDials()).toEqual([])
  })

  it('and the same for IP lookups', async () => {
    const res = await t.json('/api/whois/ip/1.1.1.1')
    expect(res.status).toBe(502)
    expect(rdap.log).toEqual([])
    expect(nonLoopbackDials()).toEqual([])
  })
})
