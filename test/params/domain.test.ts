import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DomainName, normalizeDomain } from '../../runtime/params/domain.ts'
import { ldhTestName } from '../hardening/fuzz-addresses.ts'

describe('domain normalization', () => {
  const accepted: Array<[string, string]> = [
    ['example.com', 'example.com'],
    ['EXAMPLE.Com.', 'example.com'],
    ['https://www.example.com/path?q=1#x', 'www.example.com'],
    ['http://user:pw@example.com:8080/', 'example.com'],
    ['example.com:443', 'example.com'],
    ['Bücher.example', 'xn--bcher-kva.example'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['_dmarc.example.com', '_dmarc.example.com'],
    ['s1._domainkey.example.org', 's1._domainkey.example.org'],
    ['localhost', 'localhost'],
    ['my.internal', 'my.internal'],
    ['a.b.c.d.e.f.example.xyz', 'a.b.c.d.e.f.example.xyz'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['  example.com  ', 'example.com'],
  ]
  for (const [input, expected] of accepted) {
    it(`accepts ${JSON.stringify(input)}`, () => expect(normalizeDomain(input)).toEqual({ ok: true, name: expected }))
  }

  const refused: Array<[string, RegExp]> = [
    ['', /empty/],
    ['.', /empty/],
    ['a..b', /empty label/],
    ['.example.com', /empty label/],
    ['-bad.com', /hyphen/],
    ['bad-.com', /hyphen/],
    ['ex ample.com', /whitespace|IDNA/],
    ['exa$mple.com', /letters, digits|IDNA/],
    [`${'a'.repeat(64)}.com`, /at most 63/],
    [`${'abcdefghi.'.repeat(26)}com`, /at most 253/],
    ['1.2.3.4', /IP address/],
    ['[::1]', /IP address/],
    ['::1', /IP address/],
    ['127.1', /IP address/],
    ['0x7f.0.0.1', /IP address/],
    ['1.2.3', /IP address|all-numeric/],
    ['2130706433', /IP address|all-numeric/],
    ['１２７.0.0.1', /IP address/],
    ['http://10.0.0.1/', /IP address/],
  ]
  for (const [input, reason] of refused) {
    it(`refuses ${JSON.stringify(input)}`, () => {
      const result = normalizeDomain(input)
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.reason).toMatch(reason)
    })
  }

  it('is idempotent and always yields a lowercase ASCII name of valid labels', () => {
    fc.assert(
      // Every LDH label shape under the reserved .test (RFC 2606): never a name that exists.
      fc.property(ldhTestName, (d) => {
        const once = normalizeDomain(d)
        expect(once.ok).toBe(true)
        if (!once.ok) return
        expect(normalizeDomain(once.name)).toEqual(once)
        expect(once.name).toMatch(/^[a-z0-9_.-]+$/)
        expect(once.name.length).toBeLessThanOrEqual(253)
      }),
      { numRuns: 1000 },
    )
  })

  it('never throws on arbitrary input', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => void normalizeDomain(s)))
  })

  it('works as a zod param with the reason as message', () => {
    expect(DomainName.parse('Example.COM.')).toBe('example.com')
    const result = DomainName.safeParse('a..b')
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toMatch(/empty label/)
  })
})
