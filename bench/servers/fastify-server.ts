import { randomUUID } from 'node:crypto'
import rateLimit from '@fastify/rate-limit'
import Fastify, { LogController } from 'fastify'
import type { FastifyReply, FastifyRequest } from 'fastify'
import pino from 'pino'
import { defineIsoNow, systemClock } from '../../runtime/clock.ts'
import { createUlidFactory, cryptoDigits } from '../../runtime/ulid-factory.ts'

// The peer (issue 21): the same contract for /api/uuid and a DNS cache hit, built
// the way a user would build it on fastify 5 instead of infralens — fastify's own
// pino request logging, @fastify/rate-limit (draft-spec RateLimit-* headers), a
// ULID request id as fastify's request id, response schemas (fast-json-stringify)
// for the envelope. What a client sees is what infralens sends: the envelope, the
// request id in X-Request-Id and the body, RateLimit-Limit/Remaining/Reset/Policy,
// Cache-Control, and on the cached answer ETag and Vary.
//
// Fair to fastify rather than its defaults: the log goes to an asynchronous pino
// destination like infralens's (fastify's default is synchronous), and it writes
// the contract's one access line per request (a LogController) instead of fastify's
// two ("incoming request", "request completed"): FASTIFY_LOG=default measures
// those. The ULID factory is infralens's own (~0.1 µs; ulid's monotonicFactory is
// ~0.4 µs).

const isoNow = defineIsoNow(systemClock)
const nextId = createUlidFactory(cryptoDigits, () => systemClock.now())
const LIMIT = 1_000_000_000
const defaultLogging = process.env.FASTIFY_LOG === 'default'
const logLevel = process.env.LOG_LEVEL ?? 'info'

interface Labels {
  endpoint: string
  cache: 'hit' | 'miss'
}
const labels = new WeakMap<object, Labels>()

/** The contract's access line, one per request, when the answer has gone out (instead of fastify's two lines). */
class AccessLog extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'request_id' })
  }
  override incomingRequest(): void {}
  override requestCompleted(_error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const l = labels.get(request)
    request.log.info(
      {
        log: 'access',
        endpoint: l?.endpoint ?? null,
        method: request.method,
        path: request.url.split('?', 1)[0],
        client: request.ip,
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime * 100) / 100,
        cache: l?.cache ?? null,
        tier: 'anonymous',
      },
      'request',
    )
  }
}

const app = Fastify({
  logger: { level: logLevel, base: { service: 'infralens' }, timestamp: () => `,"time":"${isoNow()}"`, stream: pino.destination({ sync: false }) },
  genReqId: () => nextId(),
  logController: defaultLogging ? new LogController({ requestIdLogLabel: 'request_id' }) : new AccessLog(),
})

await app.register(rateLimit, {
  global: true,
  max: LIMIT,
  timeWindow: 60_000,
  enableDraftSpec: true,
  keyGenerator: (request) => request.ip,
})

// The envelope with the data schema of each route: fastify compiles a serializer.
const envelope = (data: Record<string, unknown>) => ({
  200: {
    type: 'object',
    properties: {
      success: { type: 'boolean' },
      data,
      meta: {
        type: 'object',
        properties: { cache: { type: 'string' }, category: { type: 'string' }, endpoint: { type: 'string' }, tier: { type: 'string' } },
      },
      links: { type: 'object', properties: { self: { type: 'string' } } },
      timestamp: { type: 'string' },
      request_id: { type: 'string' },
    },
  },
})

app.addHook('onRequest', async (request, reply) => {
  reply.header('x-request-id', request.id)
  reply.header('ratelimit-policy', `${LIMIT};w=60`)
})

const meta = (endpoint: string, category: string, cache: 'hit' | 'miss') => ({ cache, category, endpoint, tier: 'anonymous' })

app.get('/api/uuid', { schema: { response: envelope({ type: 'object', properties: { uuid: { type: 'string' }, version: { type: 'integer' } } }) } }, async (request, reply) => {
  labels.set(request, { endpoint: 'utilities.uuid', cache: 'miss' })
  reply.header('cache-control', 'no-store')
  return {
    success: true,
    data: { uuid: randomUUID(), version: 4 },
    meta: meta('utilities.uuid', 'utilities', 'miss'),
    links: { self: request.url },
    timestamp: isoNow(),
    request_id: request.id,
  }
})

// A DNS cache hit: the answer's data (FLOOR_DNS_DATA, the pipeline's own) kept per
// lower-cased name with its expiry and its ETag, as infralens's cache layer keeps it.
const dnsData = JSON.parse(process.env.FLOOR_DNS_DATA ?? '{}') as Record<string, unknown>
const dnsCache = new Map<string, { data: Record<string, unknown>; expiresAt: number; etag: string }>()
app.get<{ Params: { domain: string } }>('/api/dns/a/:domain', { schema: { response: envelope({ type: 'object', additionalProperties: true }) } }, async (request, reply) => {
  const domain = request.params.domain.toLowerCase()
  const now = systemClock.now()
  let entry = dnsCache.get(domain)
  if (entry === undefined || entry.expiresAt <= now) {
    entry = { data: dnsData, expiresAt: now + 300_000, etag: `W/"${randomUUID().replaceAll('-', '').slice(0, 22)}"` }
    dnsCache.set(domain, entry)
  }
  labels.set(request, { endpoint: 'dns.a', cache: 'hit' })
  reply.header('cache-control', `private, max-age=${Math.ceil((entry.expiresAt - now) / 1000)}`)
  reply.header('etag', entry.etag)
  reply.header('vary', 'Accept-Encoding, Origin')
  return {
    success: true,
    data: entry.data,
    meta: meta('dns.a', 'dns', 'hit'),
    links: { self: request.url },
    timestamp: isoNow(),
    request_id: request.id,
  }
})

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
process.send?.({ url: address })
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0))
