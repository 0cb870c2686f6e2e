import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import type { GuardedNetwork, HttpRequestOptions, HttpResponse } from '../../runtime/net/guarded-network.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import type { BootstrapKind } from '../../plugins/rdap/bootstrap.ts'
import { BootstrapFormatError, parseBootstrap } from '../../plugins/rdap/bootstrap.ts'
import { createBootstrapStore } from '../../plugins/rdap/bootstrap-store.ts'
import { SNAPSHOT_FILES, snapshotTable } from '../../plugins/rdap/snapshot.ts'
import { RDAP_FIXTURES } from '../support/fake-rdap.ts'

const fixture = (name: string): unknown => JSON.parse(readFileSync(join(RDAP_FIXTURES, 'bootstrap', name), 'utf8'))
const ip = (text: string) => {
  const parsed = parseIp(text)
  if (!parsed.ok) throw new Error(text)
  return parsed.value
}

describe('bootstrap matching on the recorded IANA files', () => {
  const dns = parseBootstrap('dns', fixture('dns.json'))
  const v4 = parseBootstrap('ipv4', fixture('ipv4.json'))
  const v6 = parseBootstrap('ipv6', fixture('ipv6.json'))
  const asn = parseBootstrap('asn', fixture('asn.json'))
  const asn2025 = parseBootstrap('asn', fixture('asn.2025-01-17.json'))

  it('reads publication dates and every service entry', () => {
    expect(dns.publication).toBe('2024-07-25T00:00:01Z')
    expect(v4.publication).toBe('2019-06-07T19:00:02Z')
    expect(v6.publication).toBe('2019-11-06T19:00:04Z')
    expect(asn.publication).toBe('2024-04-10T20:00:01Z')
    expect(asn2025.publication).toBe('2025-01-17T20:00:02Z')
    const raw = fixture('dns.json') as { services: Array<[string[], string[]]> }
    expect(dns.size).toBe(raw.services.reduce((n, [entries]) => n + entries.length, 0))
  })

  it.each([
    ['google.com', 'com', 'https://rdap.verisign.com/com/v1/'],
    ['WWW.Google.COM.', 'com', 'https://rdap.verisign.com/com/v1/'],
    ['example.net', 'net', 'https://rdap.verisign.com/net/v1/'],
    ['norway.no', 'no', 'https://rdap.norid.no/'],
    ['example.cz', 'cz', 'https://rdap.nic.cz/'],
    ['bbc.co.uk', 'uk', 'https://rdap.nominet.uk/uk/'],
    ['wikipedia.org', 'org', 'https://rdap.publicinterestregistry.org/rdap/'],
  ])('domain %s -> .%s at %s', (name, entry, base) => {
    expect(dns.match(name)).toMatchObject({ entry, base_url: base })
  })

  it('prefers https when a service lists http too, and keeps both', () => {
    // "kg" lists only http; "samsung" a port; ARIN lists https and http.
    expect(dns.match('x.kg')).toMatchObject({ base_url: 'http://rdap.cctld.kg/', urls: ['http://rdap.cctld.kg/'] })
    expect(dns.match('x.samsung')?.base_url).toBe('https://nic.samsung:8443/rdap/')
    expect(v4.match(ip('8.8.8.8'))).toEqual({ entry: '8.0.0.0/8', base_url: 'https://rdap.arin.net/registry/', urls: ['https://rdap.arin.net/registry/', 'http://rdap.arin.net/registry/'] })
  })

  it('an unknown TLD matches nothing', () => {
    expect(dns.match('example.invalid')).toBeNull()
    expect(dns.match('test')).toBeNull()
    expect(dns.match('nope.example')).toBeNull()
  })

  it.each([
    ['1.1.1.1', '1.0.0.0/8', 'https://rdap.apnic.net/'],
    ['13.72.183.192', '13.0.0.0/8', 'https://rdap.arin.net/registry/'],
    ['130.59.31.80', '130.0.0.0/8', 'https://rdap.arin.net/registry/'],
    ['193.0.6.139', '193.0.0.0/8', 'https://rdap.db.ripe.net/'],
    ['200.3.14.10', '200.0.0.0/8', 'https://rdap.lacnic.net/rdap/'],
    ['41.1.1.1', '41.0.0.0/8', 'https://rdap.afrinic.net/rdap/'],
  ])('IPv4 %s -> %s at %s', (address, entry, base) => {
    expect(v4.match(ip(address))).toMatchObject({ entry, base_url: base })
  })

  it.each([
    ['2001:4860:4860::8888', '2001:4800::/23', 'https://rdap.arin.net/registry/'],
    ['2001:67c:2e8::1', '2001:600::/23', 'https://rdap.db.ripe.net/'],
    ['2a00:1450::1', '2a00::/12', 'https://rdap.db.ripe.net/'],
    ['2400:cb00::1', '2400::/12', 'https://rdap.apnic.net/'],
    ['2c0f:f000::1', '2c00::/12', 'https://rdap.afrinic.net/rdap/'],
    ['2801:10::1', '2800::/12', 'https://rdap.lacnic.net/rdap/'],
  ])('IPv6 %s -> %s at %s', (address, entry, base) => {
    expect(v6.match(ip(address))).toMatchObject({ entry, base_url: base })
  })

  it('addresses outside every entry, or of the other family, match nothing', () => {
    for (const a of ['10.0.0.1', '127.0.0.1', '0.0.0.1', '224.0.0.1']) expect(v4.match(ip(a)), a).toBeNull()
    expect(v6.match(ip('fd00::1'))).toBeNull()
    // The documentation block sits inside APNIC's 2001:c00::/23: the file alone would
    // send it there, which is why the client checks special-purpose space first.
    expect(v6.match(ip('2001:db8::1'))?.entry).toBe('2001:c00::/23')
    expect(v4.match(ip('2001:4860::1'))).toBeNull()
    expect(v6.match(ip('1.1.1.1'))).toBeNull()
  })

  it.each([
    [13335, '13312-15359', 'https://rdap.arin.net/registry/'],
    [2914, '2880-3153', 'https://rdap.arin.net/registry/'],
    [8283, '8192-9215', 'https://rdap.db.ripe.net/'],
    [9269, '9216-10239', 'https://rdap.apnic.net/'],
    [37271, '36864-37887', 'https://rdap.afrinic.net/rdap/'],
    [2043, '2043', 'https://rdap.db.ripe.net/'],
    [1876, '1-1876', 'https://rdap.arin.net/registry/'],
    [1877, '1877-1901', 'https://rdap.db.ripe.net/'],
    [1, '1-1876', 'https://rdap.arin.net/registry/'],
  ])('AS%i -> %s at %s (range bounds inclusive)', (n, entry, base) => {
    expect(asn.match(n)).toMatchObject({ entry, base_url: base })
  })

  it('ASNs outside every range match nothing', () => {
    for (const n of [0, 23456, 64512, 65535, 4_200_000_000, 4_294_967_295]) expect(asn.match(n), String(n)).toBeNull()
  })

  it('the newer ASN file also answers', () => {
    expect(asn2025.match(13335)?.base_url).toBe('https://rdap.arin.net/registry/')
    expect(asn2025.match(8283)?.base_url).toBe('https://rdap.db.ripe.net/')
  })
})

describe('bootstrap matching rules on synthetic tables', () => {
  it('longest IP prefix wins, whatever the order in the file', () => {
    const table = parseBootstrap('ipv6', {
      publication: 'x',
      services: [
        [['2001:4800::/23'], ['https://wide.example/']],
        [['2001:4860::/32'], ['https://narrow.example/']],
        [['2001:4860:4860::/48'], ['https://narrowest.example/']],
      ],
    })
    expect(table.match(ip('2001:4860:4860::8888'))?.base_url).toBe('https://narrowest.example/')
    expect(table.match(ip('2001:4860:1::1'))?.base_url).toBe('https://narrow.example/')
    expect(table.match(ip('2001:4801::1'))?.base_url).toBe('https://wide.example/')
    const v4 = parseBootstrap('ipv4', { services: [[['10.0.0.0/8'], ['https://a.example']], [['10.1.0.0/16'], ['https://b.example/']]] })
    expect(v4.match(ip('10.1.2.3'))).toEqual({ entry: '10.1.0.0/16', base_url: 'https://b.example/', urls: ['https://b.example/'] })
    // base URLs get their trailing slash
    expect(v4.match(ip('10.2.0.1'))?.base_url).toBe('https://a.example/')
  })

  it('longest label suffix wins for domains (multi-label entries)', () => {
    const table = parseBootstrap('dns', { services: [[['uk'], ['https://uk.example/']], [['co.uk', 'Gov.UK.'], ['https://co.example/']]] })
    expect(table.match('bbc.co.uk')?.entry).toBe('co.uk')
    expect(table.match('x.gov.uk')?.entry).toBe('gov.uk')
    expect(table.match('example.uk')?.entry).toBe('uk')
    expect(table.match('co.uk')?.entry).toBe('co.uk')
  })

  it('narrowest ASN range wins, single numbers are ranges of one', () => {
    const table = parseBootstrap('asn', { services: [[['1-100000'], ['https://wide.example/']], [['64000-64100', '70000'], ['https://narrow.example/']]] })
    expect(table.match(64050)?.base_url).toBe('https://narrow.example/')
    expect(table.match(70000)?.entry).toBe('70000')
    expect(table.match(70001)?.base_url).toBe('https://wide.example/')
  })

  it('drops non-http(s) URLs and malformed entries; refuses files with nothing usable', () => {
    const table = parseBootstrap('ipv4', { services: [[['8.0.0.0/8', 'not-a-cidr'], ['ftp://x.example/', 'https://ok.example/']], [['9.0.0.0/8'], ['javascript:alert(1)']]] })
    expect(table.size).toBe(1)
    expect(table.match(ip('8.8.8.8'))?.urls).toEqual(['https://ok.example/'])
    expect(table.match(ip('9.9.9.9'))).toBeNull()
    expect(() => parseBootstrap('dns', { services: [] })).toThrow(BootstrapFormatError)
    expect(() => parseBootstrap('dns', { hello: 1 })).toThrow(BootstrapFormatError)
    expect(() => parseBootstrap('dns', '<html>')).toThrow(BootstrapFormatError)
  })
})

describe('bundled snapshot', () => {
  it('names each file by its publication date, and loads all four', () => {
    for (const kind of ['dns', 'ipv4', 'ipv6', 'asn'] as const) {
      const table = snapshotTable(kind)
      expect(SNAPSHOT_FILES[kind]).toBe(`${kind}.${table.publication!.slice(0, 10)}.json`)
      expect(table.size).toBeGreaterThan(10)
    }
    expect(snapshotTable('dns').match('google.com')?.base_url).toBe('https://rdap.verisign.com/com/v1/')
  })
})

describe('bootstrap store: cache, refresh, snapshot fallback', () => {
  const log = pino({ level: 'silent' })
  const files: Record<string, string> = {
    dns: JSON.stringify({ publication: 'live-1', services: [[['com'], ['https://live.example/']]] }),
  }

  function stubNetwork(answer: (url: string) => HttpResponse | Error) {
    const calls: Array<{ url: string; options: HttpRequestOptions | undefined }> = []
    const network = {
      async request(url: string, options?: HttpRequestOptions) {
        calls.push({ url, options })
        const result = answer(url)
        if (result instanceof Error) throw result
        return result
      },
    } as unknown as GuardedNetwork
    return { network, calls }
  }
  const ok = (body: string): HttpResponse => ({ url: '', status: 200, headers: {}, body: Buffer.from(body), address: '192.0.2.1', timeMs: 1 })

  it('fetches <base><kind>.json once, then serves it from memory until the TTL passes', async () => {
    let now = 1_000_000
    const { network, calls } = stubNetwork(() => ok(files.dns!))
    const store = createBootstrapStore({ network, baseUrl: 'https://iana.example/rdap', timeoutMs: 500, log, ttlMs: 60_000, now: () => now })
    const [a, b] = await Promise.all([store.get('dns'), store.get('dns')])
    expect(calls.map((c) => c.url)).toEqual(['https://iana.example/rdap/dns.json'])
    expect(calls[0]!.options).toMatchObject({ timeoutMs: 500, upstream: 'rdap' })
    expect(a).toBe(b)
    expect(a.source).toMatchObject({ origin: 'live', publication: 'live-1', url: 'https://iana.example/rdap/dns.json', error: null })
    now += 59_000
    await store.get('dns')
    expect(calls).toHaveLength(1)
    now += 2_000
    await store.get('dns')
    expect(calls).toHaveLength(2)
  })

  it.each([
    ['a network failure', () => new Error('connect ECONNREFUSED')],
    ['an HTTP error', () => ({ ...ok('oops'), status: 503 })],
    ['garbage', () => ok('<html>not json</html>')],
    ['JSON that is no bootstrap file', () => ok('{"services": 3}')],
  ] as Array<[string, () => HttpResponse | Error]>)('falls back to the bundled snapshot on %s, and retries later', async (_label, fail) => {
    let now = 0
    let broken = true
    const { network, calls } = stubNetwork(() => (broken ? fail() : ok(files.dns!)))
    const store = createBootstrapStore({ network, baseUrl: 'https://iana.example/rdap/', timeoutMs: 500, log, retryMs: 1000, now: () => now })
    const first = await store.get('dns')
    expect(first.source.origin).toBe('snapshot')
    expect(first.source.publication).toBe('2024-07-25T00:00:01Z')
    expect(first.source.error).toBeTruthy()
    expect(first.table.match('google.com')?.base_url).toBe('https://rdap.verisign.com/com/v1/')
    await store.get('dns')
    expect(calls).toHaveLength(1) // not retried on every request
    broken = false
    now += 1001
    const second = await store.get('dns')
    expect(calls).toHaveLength(2)
    expect(second.source).toMatchObject({ origin: 'live', publication: 'live-1' })
  })

  it('a failed refresh keeps the last live copy rather than the older snapshot', async () => {
    let now = 0
    let broken = false
    const { network } = stubNetwork(() => (broken ? new Error('timeout') : ok(files.dns!)))
    const store = createBootstrapStore({ network, baseUrl: 'https://iana.example/', timeoutMs: 500, log, ttlMs: 10, now: () => now })
    expect((await store.get('dns')).source.origin).toBe('live')
    broken = true
    now += 11
    const stale = await store.get('dns')
    expect(stale.source).toMatchObject({ origin: 'live', publication: 'live-1', error: 'timeout' })
    expect(stale.table.match('x.com')?.base_url).toBe('https://live.example/')
  })

  it('each kind is its own file', async () => {
    const { network, calls } = stubNetwork((url) => (url.endsWith('dns.json') ? ok(files.dns!) : new Error('down')))
    const store = createBootstrapStore({ network, baseUrl: 'https://iana.example/', timeoutMs: 500, log, now: () => Date.now() })
    const kinds: BootstrapKind[] = ['dns', 'ipv4', 'ipv6', 'asn']
    const loaded = await Promise.all(kinds.map((k) => store.get(k)))
    expect(calls.map((c) => c.url).sort()).toEqual(kinds.map((k) => `https://iana.example/${k}.json`).sort())
    expect(loaded.map((l) => l.source.origin)).toEqual(['live', 'snapshot', 'snapshot', 'snapshot'])
  })
})
