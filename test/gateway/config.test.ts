import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ConfigError, KNOWN_SETTINGS, loadConfig } from '../../runtime/config.ts'

describe('config', () => {
  it('has working embedded defaults', () => {
    const c = loadConfig({})
    expect(c.port).toBe(3000)
    expect(c.host).toBe('0.0.0.0')
    expect(c.rateLimits).toEqual({ anonymous: 60, free: 600, pro: 6000 })
    expect(c.dnsResolvers).toEqual([{ host: '1.1.1.1', port: 53 }, { host: '8.8.8.8', port: 53 }])
    expect(c.propagationResolvers.length).toBeGreaterThanOrEqual(5)
    expect(c.allowPrivateTargets).toBe(false)
    // Opt-in: freezing the prototypes costs every request CPU (bench/RESULTS.md).
    expect(c.freezeIntrinsics).toBe(false)
    expect(c.dnsTimeoutMs).toBe(2000)
  })

  it('parses addresses with ports, IPv6 in brackets, named lists, CIDRs and booleans', () => {
    const c = loadConfig({
      INFRALENS_DNS_RESOLVERS: '127.0.0.2:5353, [::1]:53, ::1',
      INFRALENS_PROPAGATION_RESOLVERS: 'a=127.0.0.3,b=127.0.0.4:5300',
      INFRALENS_TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
      INFRALENS_ALLOW_PRIVATE_TARGETS: 'yes',
      INFRALENS_FREEZE_INTRINSICS: 'true',
      INFRALENS_RATE_LIMITS: 'anonymous=5,free=50,enterprise=100000',
      PORT: '0',
    })
    expect(c.dnsResolvers).toEqual([{ host: '127.0.0.2', port: 5353 }, { host: '::1', port: 53 }, { host: '::1', port: 53 }])
    expect(c.propagationResolvers).toEqual([{ host: '127.0.0.3', port: 53, name: 'a' }, { host: '127.0.0.4', port: 5300, name: 'b' }])
    expect(c.trustProxy.map(([ip, bits]) => `${ip.toString()}/${bits}`)).toEqual(['10.0.0.0/8', '127.0.0.1/32'])
    expect(c.allowPrivateTargets).toBe(true)
    expect(c.freezeIntrinsics).toBe(true)
    expect(c.rateLimits.enterprise).toBe(100000)
    expect(c.port).toBe(0)
  })

  it('empty values mean unset', () => {
    expect(loadConfig({ PORT: '', INFRALENS_KEYS_FILE: '' }).port).toBe(3000)
  })

  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: '70000' }, /PORT/],
    [{ PORT: 'abc' }, /PORT/],
    [{ INFRALENS_DNS_RESOLVERS: 'dns.google' }, /INFRALENS_DNS_RESOLVERS: "dns.google" is not an IP address/],
    [{ INFRALENS_DNS_RESOLVERS: '192.0.2.53:99999' }, /invalid port/],
    [{ INFRALENS_PROPAGATION_RESOLVERS: '192.0.2.53' }, /name=addr/],
    [{ INFRALENS_RATE_LIMITS: 'free=10' }, /anonymous tier/],
    [{ INFRALENS_RATE_LIMITS: 'anonymous=-1' }, /positive integer/],
    [{ INFRALENS_TRUST_PROXY: '10.0.0.0/33' }, /not an IP address or CIDR/],
    [{ INFRALENS_ALLOW_PRIVATE_TARGETS: 'sure' }, /INFRALENS_ALLOW_PRIVATE_TARGETS/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL/],
    [{ INFRALENS_RIPESTAT_URL: 'ftp://x' }, /INFRALENS_RIPESTAT_URL/],
  ]
  for (const [env, message] of bad) {
    it(`refuses ${JSON.stringify(env)}`, () => {
      expect(() => loadConfig(env)).toThrow(ConfigError)
      expect(() => loadConfig(env)).toThrow(message)
    })
  }

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT[\s\S]*LOG_LEVEL/)
  })
})

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

describe('unknown INFRALENS_* settings', () => {
  /** A name misspelt in the environment stops start-up: the line says which, and what was meant. */
  function refusal(env: Record<string, string>): string {
    try {
      loadConfig(env)
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      return (error as Error).message
    }
    throw new Error(`accepted ${JSON.stringify(env)}`)
  }

  it('a typo of a real setting is refused, naming the closest one', () => {
    expect(refusal({ INFRALENS_DNS_RESOLVER: '192.0.2.53' })).toContain('Unknown setting INFRALENS_DNS_RESOLVER; did you mean INFRALENS_DNS_RESOLVERS?')
  })

  const typos: Array<[string, string]> = [
    ['INFRALENS_DNS_RESOVLERS', 'INFRALENS_DNS_RESOLVERS'], // letters swapped
    ['INFRALENS_DNS_TIMEOUT', 'INFRALENS_DNS_TIMEOUT_MS'], // the unit left off
    ['INFRALENS_RATELIMITS', 'INFRALENS_RATE_LIMITS'],
    ['INFRALENS_TRUST_PROXIES', 'INFRALENS_TRUST_PROXY'],
    ['INFRALENS_dns_resolvers', 'INFRALENS_DNS_RESOLVERS'], // case is a typo too
    ['INFRALENS_CACHE_MAX_ENTRYS', 'INFRALENS_CACHE_MAX_ENTRIES'],
  ]
  for (const [typo, meant] of typos) {
    it(`${typo}: did you mean ${meant}?`, () => {
      expect(refusal({ [typo]: '1' })).toContain(`Unknown setting ${typo}; did you mean ${meant}?`)
    })
  }

  it('two settings equally close are both named', () => {
    expect(refusal({ INFRALENS_ASN_IPV5_CSV: '/tmp/x.csv' })).toContain('Unknown setting INFRALENS_ASN_IPV5_CSV; did you mean INFRALENS_ASN_IPV4_CSV or INFRALENS_ASN_IPV6_CSV?')
  })

  it('nothing close: the line lists every INFRALENS_* setting, the ones the README documents', () => {
    const message = refusal({ INFRALENS_BANANA: 'yes' })
    const match = /Unknown setting INFRALENS_BANANA; the INFRALENS_\* settings are (.+)$/m.exec(message)
    expect(match, message).not.toBeNull()
    const listed = match![1]!.split(', ')
    expect(listed).toEqual([...listed].sort())
    const configuration = /## Configuration\n([\s\S]*?)\n## /.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))![1]!
    const documented = new Set(configuration.match(/`INFRALENS_[A-Z0-9_]+`/g)!.map((name) => name.slice(1, -1)))
    expect(new Set(listed)).toEqual(documented)
  })

  it('every unknown name is reported, beside bad values, at once', () => {
    const message = refusal({ INFRALENS_DNS_RESOLVER: '192.0.2.53', INFRALENS_RATE_LIMIT: 'anonymous=1', PORT: 'x' })
    expect(message).toContain('Unknown setting INFRALENS_DNS_RESOLVER; did you mean INFRALENS_DNS_RESOLVERS?')
    expect(message).toContain('Unknown setting INFRALENS_RATE_LIMIT; did you mean INFRALENS_RATE_LIMITS?')
    expect(message).toMatch(/PORT:/)
  })

  it('an unknown name set empty counts as unset, like any other; names without the prefix are not ours', () => {
    expect(loadConfig({ INFRALENS_DNS_RESOLVER: '', PORT: '8080', INFRALENS: 'x', INFRALENSX_Y: 'z', infralens_dns_resolver: 'w' }).port).toBe(8080)
  })

  // Names the tests above use as typos on purpose, and the e2e test of the same.
  const ON_PURPOSE = new Set([
    'INFRALENS_DNS_RESOLVER',
    ...typos.map(([typo]) => typo.toUpperCase()),
    'INFRALENS_ASN_IPV5_CSV',
    'INFRALENS_BANANA',
    'INFRALENS_RATE_LIMIT',
  ])

  it('nothing in the repository sets an INFRALENS_* variable that is not a setting', () => {
    const files = [join(ROOT, 'README.md'), join(ROOT, '.ci', 'run'), join(ROOT, 'package.json')]
    for (const dir of ['test', 'bench', 'scripts', 'runtime', 'plugins', 'registry']) {
      for (const entry of readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })) {
        if (/\.(ts|md|sh|lua|json|ya?ml)$/.test(entry) && !entry.includes('node_modules')) files.push(join(ROOT, dir, entry))
      }
    }
    const known = new Set(KNOWN_SETTINGS)
    const stray: string[] = []
    for (const file of files) {
      if (!statSync(file).isFile()) continue
      for (const name of readFileSync(file, 'utf8').match(/INFRALENS_[A-Za-z0-9_]+/g) ?? []) {
        if (!known.has(name) && !ON_PURPOSE.has(name.toUpperCase())) stray.push(`${file.slice(ROOT.length + 1)}: ${name}`)
      }
    }
    expect(files.length).toBeGreaterThan(100)
    expect(stray).toEqual([])
  })
})
