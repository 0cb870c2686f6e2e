import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { RequestRecord } from '../../runtime/define-plugin.ts'
import { accessLine } from '../../plugins/observability/access-line.ts'
import { duplicateKeys } from '../support/duplicate-keys.ts'
import { ipv4Safe, ipv6Safe } from '../hardening/fuzz-addresses.ts'
import { anyText } from '../support/any-text.ts'

// The access line is a hand-built template (plugins/observability/access-line.ts);
// the path and the client address are text the client controls. Whatever they
// hold, the bytes written must be one line of valid JSON whose fields read back
// exactly as given.

const NOW = '2026-01-02T03:04:05.678Z'

/** A method as HTTP allows it (a token: no quote, backslash or control character). */
const method = fc.string({ unit: fc.constantFrom(...'!#$%&\'*+-.^_`|~ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz0123456789'.split('')), minLength: 1 })

const record: fc.Arbitrary<RequestRecord> = fc
  .record({
    requestId: fc.constant('01JG00000000000000000000AB'),
    endpoint: fc.constantFrom(null, 'dns.a', 'test.failing'),
    tag: fc.constantFrom(null, 'dns'),
    method,
    path: anyText,
    // Loopback and documentation addresses (values only, as every address a test draws).
    client: fc.oneof(ipv4Safe, ipv6Safe, anyText),
    status: fc.constantFrom(200, 404, 405, 500, 502),
    durationMs: fc.double({ min: 0, max: 1e6, noNaN: true }),
    cache: fc.constantFrom(null, 'hit' as const, 'miss' as const),
    tier: fc.constantFrom(null, 'anonymous', 'pro'),
    error: fc.option(fc.record({ code: fc.constantFrom('upstream_error', 'not_found'), upstream: anyText, reason: anyText }, { requiredKeys: ['code'] }), {
      nil: undefined,
    }),
  })
  .map((r) => {
    const { error, ...rest } = r
    return error === undefined ? rest : { ...rest, error }
  })

/** What reaches the log: the line as UTF-8 bytes (a lone surrogate not escaped would come out as U+FFFD). */
function written(line: string): string {
  return Buffer.from(line, 'utf8').toString('utf8')
}

describe('access line', () => {
  it('is one valid JSON line, no key twice, with path, client and every field as given', () => {
    fc.assert(
      fc.property(record, (r) => {
        const line = written(accessLine(r, () => NOW))
        expect(line.endsWith('\n')).toBe(true)
        expect(line.indexOf('\n')).toBe(line.length - 1)
        expect(duplicateKeys(line.slice(0, -1))).toEqual([])
        const parsed = JSON.parse(line) as Record<string, unknown>
        expect(parsed).toMatchObject({
          level: 30,
          time: NOW,
          log: 'access',
          request_id: r.requestId,
          endpoint: r.endpoint,
          method: r.method,
          path: r.path,
          client: r.client,
          status: r.status,
          cache: r.cache,
          tier: r.tier,
          msg: 'request',
        })
        expect(parsed.duration_ms).toBeCloseTo(r.durationMs, 1)
        if (r.error) expect(parsed.error).toEqual(r.error)
        else expect(parsed).not.toHaveProperty('error')
      }),
      { numRuns: 2000 },
    )
  })

  it('writes a plain path as it is', () => {
    const r: RequestRecord = {
      requestId: '01JG00000000000000000000AB',
      endpoint: 'dns.a',
      tag: 'dns',
      method: 'GET',
      path: '/api/dns/a/example.com',
      client: '2001:db8::7',
      status: 200,
      durationMs: 1.234,
      cache: 'miss',
      tier: 'anonymous',
    }
    expect(accessLine(r, () => NOW)).toBe(
      `{"level":30,"time":"${NOW}","service":"infralens","log":"access","request_id":"01JG00000000000000000000AB","endpoint":"dns.a","method":"GET","path":"/api/dns/a/example.com","client":"2001:db8::7","status":200,"duration_ms":1.23,"cache":"miss","tier":"anonymous","msg":"request"}\n`,
    )
  })
})
