import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../runtime/config.ts'

describe('config', () => {
  it('has working embedded defaults', () => {
    const c = loadConfig({})
    expect(c.port).toBe(3000)
    expect(c.host).toBe('0.0.0.0')
    expect(c.rateLimits).toEqual({ anonymous: 60, free: 600, pro: 6000 })
    expect(c.dnsResolvers).toEqual([{ host: '1.1.1.1', port: 53 }, { host: '8.8.8.8', port: 53 }])
    expect(c.propagationResolvers.length).toBeGreaterThanOrEqual(5)
    expect(c.allowPrivateTargets).toBe(false)
    expect(c.dnsTimeoutMs).toBe(2000)
  })

  it('parses addresses with ports, IPv6 in brackets, named lists, CIDRs and booleans', () => {
    const c = loadConfig({
      INFRALENS_DNS_RESOLVERS: '127.0.0.2:5353, [::1]:53, ::1',
      INFRALENS_PROPAGATION_RESOLVERS: 'a=127.0.0.3,b=127.0.0.4:5300',
      INFRALENS_TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
      INFRALENS_ALLOW_PRIVATE_TARGETS: 'yes',
      INFRALENS_RATE_LIMITS: 'anonymous=5,free=50,enterprise=100000',
      PORT: '0',
    })
    expect(c.dnsResolvers).toEqual([{ host: '127.0.0.2', port: 5353 }, { host: '::1', port: 53 }, { host: '::1', port: 53 }])
    expect(c.propagationResolvers).toEqual([{ host: '127.0.0.3', port: 53, name: 'a' }, { host: '127.0.0.4', port: 5300, name: 'b' }])
    expect(c.trustProxy.map(([ip, bits]) => `${ip.toString()}/${bits}`)).toEqual(['10.0.0.0/8', '127.0.0.1/32'])
    expect(c.allowPrivateTargets).toBe(true)
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
