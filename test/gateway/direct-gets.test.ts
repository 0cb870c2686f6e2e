import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import fc from 'fast-check'
import type { Server } from 'srvx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineFixedClock } from '../../runtime/clock.ts'
import type { RecentRoutesH3 } from '../../runtime/recent-routes.ts'
import { listen } from '../../runtime/server.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { cidr, ipSafe } from '../hardening/fuzz-addresses.ts'
import { exchange } from '../hardening/fuzz-wire.ts'

// runtime/direct-gets.ts answers the GETs of paths h3 has routed before without
// srvx's adapter and h3's app. The oracle is the way it skips: two copies of the
// service on the same fixed clock, one with the direct path (as `npm start`
// serves) and one without it, get the same requests as raw bytes in the same
// order, and every answer must be the same bytes — status line, headers in order,
// body — but for what differs between any two answers (request ids, random ids,
// the Date header, the uptime). Generated requests aim at the direct path's edges:
// the characters it leaves to srvx and h3 (percent-encodings, dot segments,
// quotes, non-ASCII), Hosts it leaves (ports, underscores, brackets, bad ones the
// guard refuses), compression, revalidation, CORS, controls good and bad, and
// methods it never takes.

const START = '2026-03-01T12:00:00.000Z'

let direct: TestApp
let viaH3: TestApp
let directServer: Server
let viaH3Server: Server
/** Requests that reached h3's app (its ~request), per service. */
const h3Entries = new Map<TestApp, number>()

function countH3Entries(t: TestApp): void {
  const app = t.app as unknown as { '~request': (...args: unknown[]) => unknown }
  const original = app['~request'].bind(t.app as RecentRoutesH3)
  h3Entries.set(t, 0)
  app['~request'] = (...args: unknown[]) => {
    h3Entries.set(t, h3Entries.get(t)! + 1)
    return original(...args)
  }
}

beforeAll(async () => {
  const env = { INFRALENS_RATE_LIMITS: 'anonymous=1000000000', LOG_LEVEL: 'error' }
  direct = await startTestApp(env, { clock: defineFixedClock(START) })
  viaH3 = await startTestApp(env, { clock: defineFixedClock(START) })
  countH3Entries(direct)
  countH3Entries(viaH3)
  directServer = await listen(direct, { port: 0, host: '127.0.0.1' })
  viaH3Server = await listen(viaH3, { port: 0, host: '127.0.0.1', directGets: false })
}, 60_000)
afterAll(async () => {
  await directServer?.close(true)
  await viaH3Server?.close(true)
  await direct?.close()
  await viaH3?.close()
})

const portOf = (server: Server) => Number(new URL(server.url!).port)

/** An answer with what differs between any two answers masked: status line, headers in order, decoded body. */
async function send(server: Server, bytes: Buffer): Promise<string> {
  const { answer, raw, error } = await exchange(portOf(server), bytes, 10_000, false, bytes.subarray(0, 5).toString() === 'HEAD ')
  if (!answer) return `no answer: ${error ?? ''}`
  const headEnd = raw.indexOf('\r\n\r\n')
  const lines = raw.subarray(0, headEnd).toString('latin1').split('\r\n')
  const coding = answer.headers.get('content-encoding')
  let body = Buffer.from(answer.bytes)
  if (coding === 'gzip') body = gunzipSync(body)
  else if (coding === 'br') body = brotliDecompressSync(body)
  else if (coding === 'deflate') body = inflateSync(body)
  const masked = lines.map((line) => {
    const name = line.slice(0, line.indexOf(':')).toLowerCase()
    if (name === 'date' || name === 'x-request-id') return `${name}: *`
    // A compressed body's length depends on its (masked) random ids.
    if (name === 'content-length' && coding !== null) return `${name}: *`
    return line
  })
  const text = body
    .toString('utf8')
    .replace(/[0-9A-HJKMNP-TV-Z]{26}/g, '<ulid>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/"uptime_seconds":\d+/, '"uptime_seconds":*')
  return `${masked.join('\n')}\n\n${text}`
}

/** The same bytes to both, in the same order: the two services stay in the same state. */
async function both(bytes: Buffer): Promise<[string, string]> {
  const a = await send(directServer, bytes)
  const b = await send(viaH3Server, bytes)
  return [a, b]
}

const request = (method: string, target: string, headers: Array<[string, string]>) =>
  Buffer.from(`${method} ${target} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}Connection: close\r\n\r\n`, 'latin1')

describe('direct GETs (runtime/direct-gets.ts)', () => {
  it('answers a path h3 has routed without h3, from the second request on', async () => {
    const before = [h3Entries.get(direct)!, h3Entries.get(viaH3)!]
    for (let i = 0; i < 3; i++) {
      const [a, b] = await both(request('GET', '/api/data/ports?limit=2', [['Host', '127.0.0.1']]))
      expect(a).toBe(b)
      expect(a).toMatch(/^HTTP\/1\.1 200 OK\n/)
    }
    // The first went through h3 (which keeps the match), the next two did not.
    expect(h3Entries.get(direct)! - before[0]!).toBe(1)
    expect(h3Entries.get(viaH3)! - before[1]!).toBe(3)
  })

  it('leaves to srvx and h3 what it does not take, answered the same', async () => {
    const cases: Array<[string, string, Array<[string, string]>]> = [
      ['HEAD', '/api/data/ports', [['Host', '127.0.0.1']]],
      ['POST', '/api/data/ports', [['Host', '127.0.0.1'], ['Content-Length', '0']]],
      ['OPTIONS', '/api/data/ports', [['Host', '127.0.0.1'], ['Origin', 'https://x.test']]],
      ['GET', '/api/data/%70orts', [['Host', '127.0.0.1']]],
      ['GET', '/api/data/./ports', [['Host', '127.0.0.1']]],
      ['GET', '/api/data/ports?q="x"', [['Host', '127.0.0.1']]],
      ['GET', '/api/data/ports', [['Host', 'under_score.test']]],
      ['GET', '/api/data/ports', [['Host', '[::1]:8080']]],
      ['GET', '/api/data/ports', [['Host', 'bad host']]],
      ['GET', '/api/nothing-here', [['Host', '127.0.0.1']]],
      // A path whose only endpoint is a POST: the direct path takes the GET, the route answers 405 with Allow.
      ['GET', '/api/ip/bulk', [['Host', '127.0.0.1']]],
      ['GET', '/api/ip/bulk?format=yaml', [['Host', '127.0.0.1'], ['Origin', 'https://x.test']]],
    ]
    for (const [method, target, headers] of cases) {
      // Twice: the second is the one the direct path would take if it took it.
      for (let i = 0; i < 2; i++) {
        const [a, b] = await both(request(method, target, headers))
        expect(a, `${method} ${target} ${JSON.stringify(headers)}`).toBe(b)
      }
    }
  })

  it('gives the same bytes as srvx and h3 for generated GETs', async () => {
    const paths = fc.oneof(
      fc.constantFrom(
        '/api/uuid',
        '/api/ulid',
        '/api/uuid/bulk',
        '/api/ulid/bulk',
        '/api/myip',
        '/api/health',
        '/api/endpoints',
        '/api/openapi.json',
        '/api/docs',
        '/api/data/ports',
        '/api/data/tlds',
        '/api/data/http-status-codes',
        '/api/data/dns-record-types',
        '/api/data/bogons',
        '/api/data/resolvers',
        '/api/base64/encode',
        '/api/base64/decode',
        '/api/no-such-endpoint',
      ),
      ipSafe.map((ip) => `/api/ip/${ip}`),
      cidr.map((c) => `/api/cidr/analyze/${c}`),
      fc.constantFrom('sha256', 'md5', 'SHA1', 'crc32', 'nope', '__proto__').map((a) => `/api/hash/${a}`),
    )
    // Mostly what clients send; a quarter what the direct path leaves to srvx and h3 (or takes, where srvx keeps it as sent).
    const value = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('', '1', '2', '0', '-1', 'true', 'no', 'maybe', 'json', 'yaml', 'xml', 'csv', 'JSON', 'uuid', 'data', 'zzz', 'port,name', '-port', 'hello', 'aGVsbG8=') },
      { weight: 1, arbitrary: fc.constantFrom('%22', '%zz', '%2e%2e', 'caf%C3%A9', 'a+b', '%20', '[a]', '{}', '|', '^', '`', '\\', "'", '"', '<b>', 'é') },
    )
    const name = fc.constantFrom('format', 'pretty', 'fields', 'exclude', 'sort', 'order', 'limit', 'offset', 'compact', 'include_meta', 'include_links', 'count', 'text', 'input', 'x', '__proto__', 'constructor')
    const query = fc.array(fc.tuple(name, value), { maxLength: 4 }).map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''))
    const suffix = fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('/', '//', '/.', '?', '#x', '%2F') })
    const host = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('127.0.0.1', 'localhost:3000', 'api.example.test', 'API.Example.TEST') },
      { weight: 1, arbitrary: fc.constantFrom('under_score.test', '[::1]:8080', '127.0.0.1:99999', 'x.test.') },
    )
    const optional = (header: string, values: string[]) => fc.constantFrom<Array<[string, string]>>([], ...values.map((v): Array<[string, string]> => [[header, v]]))
    const headers = fc
      .tuple(host, optional('Accept-Encoding', ['gzip', 'br', 'gzip, br', 'identity', 'deflate', '*']), optional('If-None-Match', ['*', 'W/"x"']), optional('Origin', ['https://x.test']), optional('Accept', ['application/x-ndjson', 'text/csv']))
      .map(([h, ...rest]): Array<[string, string]> => [['Host', h], ...rest.flat()])
    const before = [h3Entries.get(direct)!, h3Entries.get(viaH3)!]
    let sent = 0
    await fc.assert(
      fc.asyncProperty(paths, suffix, query, headers, async (path, end, q, hs) => {
        const bytes = request('GET', `${path}${end}${q}`, hs)
        // Twice: the first may be what puts the path's match where the direct path finds it.
        for (let i = 0; i < 2; i++) {
          const [a, b] = await both(bytes)
          sent++
          expect(a).toBe(b)
        }
      }),
      { numRuns: 500 },
    )
    // The property tested the direct path, not only the way around it.
    const viaH3Count = h3Entries.get(viaH3)! - before[1]!
    const directCount = h3Entries.get(direct)! - before[0]!
    expect(viaH3Count).toBeGreaterThan(sent / 2)
    expect(viaH3Count - directCount).toBeGreaterThan(sent / 4)
  }, 120_000)
})
