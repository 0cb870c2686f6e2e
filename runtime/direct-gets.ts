import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import { H3Event, toResponse } from 'h3'
import { FastURL } from 'srvx'
import { NodeRequest, sendNodeResponse } from 'srvx/node'
import { PlainResponse } from './http/plain-response.ts'
import type { RecentRoutesH3 } from './recent-routes.ts'

// The hot path from Node's request to the endpoint's handler, for the requests the
// h3 app has already routed: a GET of a path whose match h3 keeps
// (runtime/recent-routes.ts: a popular name, /api/uuid), with an origin-form
// target and a plain Host. Every other request goes through srvx's Node adapter and
// h3's app as before, and those first requests are what put a path's match here.
//
// What the two ways share is everything that decides the answer: the same srvx
// request object (NodeRequest: headers, client address, abort signal), a URL made
// from the same parts srvx's adapter makes it from, h3's own event (H3Event, which
// canonicalizes the same way), h3's match for the path, the same handler, and
// h3's toResponse for any answer that is not a PlainResponse (errors reach the
// route table's onError as in h3). What this path skips, ~4-5 % of the CPU of a
// /api/uuid request (bench/RESULTS.md): srvx's per-request fetch wrapper and its
// Host validation, h3's routing call chain and response preparation, and srvx's
// handling of the answer (a PlainResponse goes to writeHead and end with the
// status, headers and body srvx would write). test/gateway/direct-gets.test.ts
// compares both ways byte for byte over sockets on generated requests.

/** A Host srvx's adapter keeps as sent (a subset of what its HOST_RE accepts): dot-separated labels and a port. */
const PLAIN_HOST = /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d{1,5})?$/

export interface DirectGetOptions {
  /** srvx's limit on request bodies (a GET sends none; passed as listen() gives it to srvx). */
  maxRequestBodySize: number
}

/** Returns true when it took the request; false leaves it, untouched, to srvx's handler. */
export type DirectGets = (req: IncomingMessage, res: ServerResponse) => boolean

export function defineDirectGets(app: RecentRoutesH3, options: DirectGetOptions): DirectGets {
  const config = app.config
  // Clients send the same Host on request after request: one string comparison then.
  let lastHost = ''
  return (req, res) => {
    if (req.method !== 'GET') return false
    const target = req.url
    if (target === undefined || target.charCodeAt(0) !== 47 /* "/" */) return false
    const q = target.indexOf('?')
    const pathname = q === -1 ? target : target.slice(0, q)
    const match = app.keptMatch(pathname)
    if (match === undefined) return false
    const host = req.headers.host
    if (host !== lastHost) {
      if (host === undefined || !PLAIN_HOST.test(host)) return false
      lastHost = host
    }
    if ((req.socket as TLSSocket).encrypted) return false
    try {
      const request = new NodeRequest({ req, res, maxRequestBodySize: options.maxRequestBodySize })
      // The URL srvx's adapter makes of this target and Host: NodeRequestURL hands
      // FastURL these four parts (a form its constructor takes, not in its types),
      // and FastURL normalizes what needs it (dot segments, characters to escape).
      const parts = { protocol: 'http:', host, pathname, search: q === -1 ? '' : target.slice(q) }
      ;(request as unknown as { _url: URL })._url = new FastURL(parts as unknown as URL)
      const event = new H3Event(request, undefined, app)
      // The match is the one h3 finds for the path as its event has it (normalized,
      // percent-encoding canonicalized). A kept path is such a path already, so the
      // target's path is the event's unless it was not as sent: then h3 routes it.
      if (event.url.pathname !== pathname) return false
      event.context.params = match.params
      event.context.matchedRoute = match.data
      let result: unknown
      try {
        result = match.data.handler(event)
      } catch (error) {
        // As h3 does: a throw is a rejection, answered through onError.
        result = Promise.reject(error)
      }
      if (typeof (result as Promise<unknown> | undefined)?.then === 'function') {
        ;(result as Promise<unknown>).then(
          (resolved: unknown) => answer(res, event, resolved),
          (error: unknown) => answer(res, event, Promise.reject(error)),
        )
      } else {
        answer(res, event, result)
      }
    } catch {
      fail(res)
    }
    return true
  }

  /** A PlainResponse as srvx writes it; anything else (an error, another Response) through h3's toResponse and srvx's sender. */
  function answer(res: ServerResponse, event: H3Event, result: unknown): void {
    if (result instanceof PlainResponse) return writePlain(res, result)
    const response = toResponse(result, event, config)
    if (response instanceof Response) send(res, response)
    else response.then((r) => send(res, r), () => fail(res))
  }
}

function send(res: ServerResponse, response: Response): void {
  if (response instanceof PlainResponse) return writePlain(res, response)
  sendNodeResponse(res, response).catch(() => fail(res))
}

/** What srvx's adapter does with a FastResponse's _toNodeResponse(): the head, then the body. */
function writePlain(res: ServerResponse, response: PlainResponse): void {
  try {
    const { status, statusText, headers, body } = response._toNodeResponse()
    res.writeHead(status, statusText, headers)
    // srvx writes the body, then ends: the same bytes, but end(body) sends head and
    // body in one corked write at once, and cost ~3-4 % less CPU per /api/uuid
    // request than write() then end() (paired A/B, both orders, bench/RESULTS.md).
    if (body === undefined) res.end()
    else res.end(body)
  } catch {
    fail(res)
  }
}

/** As srvx answers a handler or sender that failed: a bare 500 when nothing was sent yet, else the connection cut. */
function fail(res: ServerResponse): void {
  if (res.writableEnded) return
  if (res.headersSent) {
    res.destroy()
    return
  }
  res.statusCode = 500
  res.statusMessage = ''
  res.end()
}
