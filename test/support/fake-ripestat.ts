// The RIPEstat part of the loopback internet: one HTTP server on 127.0.0.46 standing
// in for stat.ripe.net's Data API (/data/<call>/data.json?resource=…). It answers
// like the real one from the recorded envelopes in test/fixtures/ripestat/:
// a recorded resource (and, for prefix-overview and network-info, anything inside
// the recorded block, as RIPEstat aligns those) gets the recording; any other
// resource gets the recording with its resource fields rewritten and its routing
// facts taken from TEST_ROUTES below (test data, not recordings). Faults on demand
// (timeout, reset, garbage, 5xx, 429, an HTML error page, a JSON error status,
// slow drip), per data call or resource, and a log of requests.

import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { join } from 'node:path'
import { ROOT } from '../../runtime/app.ts'
import { prefixMask } from '../../runtime/ip/bits.ts'
import { formatCidr } from '../../runtime/ip/format.ts'
import type { Cidr } from '../../runtime/ip/ip-types.ts'
import { parseCidr } from '../../runtime/ip/parse-cidr.ts'

export const RIPESTAT_FIXTURES = join(ROOT, 'test', 'fixtures', 'ripestat')

export type RipestatCall = 'prefix-overview' | 'announced-prefixes' | 'routing-status' | 'asn-neighbours' | 'as-overview' | 'network-info'

type Json = Record<string, any>

export const readRipestatFixture = (name: string): Json => JSON.parse(readFileSync(join(RIPESTAT_FIXTURES, `${name}.json`), 'utf8')) as Json

/** Routes the fake knows beyond its recordings. Test data: plausible, not recorded. */
export const TEST_ROUTES: ReadonlyArray<{ prefix: string; origins: number[]; holder?: string }> = [
  { prefix: '193.0.0.0/21', origins: [3333], holder: 'RIPE-NCC-AS - Reseaux IP Europeens Network Coordination Centre (RIPE NCC)' }, // recorded
  { prefix: '140.78.0.0/16', origins: [1205] }, // recorded (network-info)
  { prefix: '2001:67c:2e8::/48', origins: [3333] }, // recorded (announced-prefixes of AS3333)
  { prefix: '8.8.8.0/24', origins: [15169], holder: 'GOOGLE - Google LLC' },
  { prefix: '1.1.1.0/24', origins: [13335], holder: 'CLOUDFLARENET - Cloudflare, Inc.' },
  { prefix: '1.0.4.0/22', origins: [38803], holder: 'GTELECOM-AUSTRALIA Gtelecom-AUSTRALIA' },
  { prefix: '1.0.4.0/23', origins: [38803], holder: 'GTELECOM-AUSTRALIA Gtelecom-AUSTRALIA' },
  { prefix: '203.0.113.0/24', origins: [64500, 64501], holder: 'documentation AS' },
]

export type RipestatFault =
  | { kind: 'status'; status: number; retryAfter?: string; body?: string; contentType?: string }
  /** Accept the request and never answer. */
  | { kind: 'timeout' }
  /** Destroy the connection without an answer. */
  | { kind: 'reset' }
  /** 200 with a body that is not JSON. */
  | { kind: 'garbage'; body?: string; contentType?: string }
  /** An HTML error page, as a proxy or load balancer in front of RIPEstat sends. */
  | { kind: 'html'; status?: number }
  /** 200 JSON with RIPEstat's own error envelope (status "error"). */
  | { kind: 'error-status' }
  /** The real answer, trickled out `bytes` at a time every `intervalMs`. */
  | { kind: 'drip'; bytes?: number; intervalMs?: number }

export interface RipestatFaultRule {
  fault: RipestatFault
  call?: RipestatCall
  /** Only requests for this resource (as sent). */
  resource?: string
  times?: number
}

export interface RipestatLogEntry {
  call: string
  resource: string | null
  sourceapp: string | null
  fault: RipestatFault['kind'] | null
}

export interface FakeRipestat {
  /** http://127.0.0.46:<port> */
  origin: string
  /** Points the app here (and lets it connect to loopback). */
  env: Record<string, string>
  log: RipestatLogEntry[]
  setFault(rule: RipestatFaultRule | RipestatFault | null): void
  /** Serve this `data` member (in a recorded envelope), or a whole envelope when `envelope` is set, for one call and resource. */
  serve(call: RipestatCall, resource: string, data: Json, options?: { envelope?: boolean; messages?: Array<[string, string]> }): void
  close(): Promise<void>
}

const cidrOf = (text: string): Cidr | null => {
  const p = parseCidr(text.includes('/') ? text : `${text}/${text.includes(':') ? 128 : 32}`)
  return p.ok ? p.value : null
}
const inside = (outer: Cidr, inner: Cidr) =>
  outer.version === inner.version && outer.prefixLength <= inner.prefixLength && (inner.network & prefixMask(outer.version, outer.prefixLength)) === outer.network
const same = (a: Cidr, b: Cidr) => a.version === b.version && a.prefixLength === b.prefixLength && a.network === b.network

const ROUTES = TEST_ROUTES.map((r) => ({ ...r, cidr: cidrOf(r.prefix)! }))
/** The most specific test route covering a block. */
function coveringRoute(q: Cidr) {
  return ROUTES.filter((r) => inside(r.cidr, q)).sort((a, b) => b.cidr.prefixLength - a.cidr.prefixLength)[0]
}
const asnOf = (resource: string): number | null => {
  const m = /^(?:as)?(\d+)$/i.exec(resource.trim())
  return m ? Number(m[1]) : null
}

/** The answer RIPEstat would give, from the recordings and TEST_ROUTES. */
function recorded(call: string, resource: string): Json | null {
  switch (call) {
    case 'prefix-overview': {
      const doc = readRipestatFixture('prefix-overview')
      const q = cidrOf(resource)
      if (!q) return null
      const route = coveringRoute(q)
      if (route?.prefix === '193.0.0.0/21') {
        // Recorded answer: a query inside the /21 aligned to it. Asked about the /21 itself it is not aligned.
        if (same(route.cidr, q)) {
          doc.messages = []
          doc.data.is_less_specific = false
        }
        return doc
      }
      doc.messages = route && !same(route.cidr, q) ? [['warning', `Given resource is not announced but result has been aligned to first-level less-specific (${route.prefix}).`]] : []
      doc.data.resource = route ? route.prefix : formatCidr(q)
      doc.data.is_less_specific = route !== undefined && !same(route.cidr, q)
      doc.data.announced = route !== undefined
      doc.data.asns = route ? route.origins.map((asn) => ({ asn, holder: route.holder ?? `AS${asn} test holder` })) : []
      doc.data.block = { resource: `${formatCidr({ ...q, network: q.network & prefixMask(q.version, 8), prefixLength: 8 })}`, desc: 'test block', name: 'IANA test registry' }
      return doc
    }
    case 'routing-status': {
      const asn = asnOf(resource)
      if (asn !== null) {
        const doc = readRipestatFixture('routing-status')
        doc.data.resource = String(asn)
        return doc
      }
      const q = cidrOf(resource)
      if (!q) return null
      const doc = readRipestatFixture('routing-status.prefix.derived')
      const exact = ROUTES.find((r) => same(r.cidr, q))
      doc.data.resource = formatCidr(q)
      doc.data.origins = exact ? exact.origins.map((origin) => ({ origin, route_objects: ['RIPE'] })) : []
      doc.data.less_specifics = ROUTES.filter((r) => inside(r.cidr, q) && !same(r.cidr, q)).flatMap((r) => r.origins.map((origin) => ({ prefix: r.prefix, origin })))
      doc.data.more_specifics = ROUTES.filter((r) => inside(q, r.cidr) && !same(r.cidr, q)).flatMap((r) => r.origins.map((origin) => ({ prefix: r.prefix, origin })))
      if (exact) {
        doc.data.first_seen = { ...doc.data.first_seen, prefix: exact.prefix, origin: String(exact.origins[0]) }
        doc.data.last_seen = { ...doc.data.last_seen, prefix: exact.prefix, origin: String(exact.origins[0]) }
      } else {
        doc.data.first_seen = {}
        doc.data.last_seen = {}
      }
      if (q.version === 6) doc.data.visibility = { v4: { ris_peers_seeing: 0, total_ris_peers: 344 }, v6: exact ? { ris_peers_seeing: 339, total_ris_peers: 341 } : { ris_peers_seeing: 0, total_ris_peers: 341 } }
      else if (!exact) doc.data.visibility.v4.ris_peers_seeing = 0
      return doc
    }
    case 'announced-prefixes': {
      const asn = asnOf(resource)
      if (asn === null) return null
      const doc = readRipestatFixture('announced-prefixes')
      if (asn === 3333) return doc
      const timelines = doc.data.prefixes[0].timelines
      doc.data.resource = String(asn)
      doc.data.prefixes = ROUTES.filter((r) => r.origins.includes(asn)).map((r) => ({ prefix: r.prefix, timelines }))
      return doc
    }
    case 'asn-neighbours': {
      const asn = asnOf(resource)
      if (asn === null) return null
      const doc = readRipestatFixture('asn-neighbours')
      doc.data.resource = String(asn)
      return doc
    }
    case 'as-overview': {
      const asn = asnOf(resource)
      if (asn === null) return null
      const doc = readRipestatFixture('as-overview')
      if (asn === 3333) return doc
      const route = ROUTES.find((r) => r.origins.includes(asn))
      doc.data.resource = String(asn)
      doc.data.holder = route?.holder ?? `AS${asn} test holder`
      doc.data.announced = route !== undefined
      return doc
    }
    case 'network-info': {
      const q = cidrOf(resource)
      if (!q) return null
      const doc = readRipestatFixture('network-info')
      const route = coveringRoute(q)
      if (route?.prefix === '140.78.0.0/16') return doc
      doc.data = route ? { asns: route.origins.map(String), prefix: route.prefix } : { asns: [], prefix: null }
      return doc
    }
  }
  return null
}

const HTML_PAGE = '<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1><p>The server is temporarily unable to service your request.</p></body></html>'

export async function startFakeRipestat(options: { host?: string } = {}): Promise<FakeRipestat> {
  const host = options.host ?? '127.0.0.46'
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  const log: RipestatLogEntry[] = []
  const extra = new Map<string, string>()
  let rule: (RipestatFaultRule & { left: number }) | null = null

  function faultFor(call: string, resource: string | null): RipestatFault | null {
    if (!rule || rule.left <= 0) return null
    if (rule.call && rule.call !== call) return null
    if (rule.resource !== undefined && rule.resource !== resource) return null
    rule.left -= 1
    return rule.fault
  }

  function send(res: ServerResponse, status: number, body: string, contentType = 'application/json; charset=utf-8', headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': contentType, ...headers })
    res.end(body)
  }

  function answer(call: string, resource: string | null): { status: number; body: string } {
    const key = `${call} ${resource ?? ''}`
    const served = extra.get(key)
    if (served !== undefined) return { status: 200, body: served }
    const doc = resource === null ? null : recorded(call, resource)
    if (doc) return { status: 200, body: JSON.stringify(doc) }
    // RIPEstat's answer to a resource it cannot read: HTTP 400 with an error envelope.
    return {
      status: 400,
      body: JSON.stringify({ messages: [['error', `Invalid resource or data call: ${call} ${resource ?? ''}`]], data: {}, status: 'error', status_code: 400, data_call_name: call }),
    }
  }

  function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake')
    const m = /^\/data\/([a-z-]+)\/data\.json$/.exec(url.pathname)
    const call = m?.[1] ?? url.pathname
    const resource = url.searchParams.get('resource')
    const fault = faultFor(call, resource)
    log.push({ call, resource, sourceapp: url.searchParams.get('sourceapp'), fault: fault?.kind ?? null })
    if (!m) return send(res, 404, HTML_PAGE.replace(/503 Service Unavailable|Service Unavailable/g, 'Not Found'), 'text/html')
    if (fault) {
      switch (fault.kind) {
        case 'timeout':
          return // never answered; close() destroys the socket
        case 'reset':
          req.socket.destroy()
          return
        case 'garbage':
          return send(res, 200, fault.body ?? '{"status": "ok", "data": {"prefixes": [', fault.contentType ?? 'application/json')
        case 'html':
          return send(res, fault.status ?? 503, HTML_PAGE, 'text/html; charset=utf-8')
        case 'error-status':
          return send(res, 200, JSON.stringify({ messages: [['error', 'An internal error occurred; please try again later.']], data: {}, status: 'error', status_code: 500, data_call_name: call }))
        case 'status':
          return send(res, fault.status, fault.body ?? JSON.stringify({ messages: [['error', `HTTP ${fault.status}`]], status: 'error', status_code: fault.status }), fault.contentType, fault.retryAfter ? { 'retry-after': fault.retryAfter } : {})
        case 'drip': {
          const { status, body } = answer(call, resource)
          const bytes = Buffer.from(body)
          res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes.length) })
          let at = 0
          const tick = () => {
            if (res.destroyed) return
            res.write(bytes.subarray(at, at + (fault.bytes ?? 1)))
            at += fault.bytes ?? 1
            if (at >= bytes.length) return void res.end()
            const t = setTimeout(tick, fault.intervalMs ?? 100)
            timers.add(t)
          }
          return tick()
        }
      }
    }
    const { status, body } = answer(call, resource)
    send(res, status, body)
  }

  const server = createServer(handle)
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`

  return {
    origin,
    env: { INFRALENS_RIPESTAT_URL: origin, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true' },
    log,
    setFault(next) {
      if (next === null) rule = null
      else if ('fault' in next) rule = { ...next, left: next.times ?? Infinity }
      else rule = { fault: next, left: Infinity }
    },
    serve(call, resource, data, o = {}) {
      const doc = o.envelope ? data : { ...readRipestatFixture(call === 'routing-status' ? 'routing-status.prefix.derived' : call), data, messages: o.messages ?? [] }
      extra.set(`${call} ${resource}`, JSON.stringify(doc))
    },
    async close() {
      for (const t of timers) clearTimeout(t)
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
