import { FastResponse } from 'srvx'

// The response of a routed answer: srvx's FastResponse (so h3 and srvx take it as
// any other, and app.request() callers read it as a Response), with srvx's
// conversion to Node's writeHead arguments done here for the one shape the
// runtime builds: a string or bytes body (or none) and a plain object of
// lower-case header names. srvx's own conversion makes an [name, value] array per
// header (Object.entries), lower-cases every name again and checks the body
// against five types; here it is one pass over the object into the flat array
// Node takes. Hand-written against srvx 1.0's private _toNodeResponse contract
// (the one method its Node adapter calls to send a FastResponse): the same
// status, headers (in the same order) and body as srvx's own, checked in
// test/gateway/plain-response.test.ts against srvx's conversion and over a socket.

export type PlainBody = string | Uint8Array<ArrayBuffer> | null

/** What srvx's Node adapter asks a FastResponse for (its PreparedNodeResponse). */
interface NodeParts {
  status: number
  statusText: string
  /** name, value, name, value, ... as Node's writeHead takes them. */
  headers: string[]
  body: string | Uint8Array | undefined
}
/** srvx's own conversion, for a response whose headers someone may have changed. */
const srvxParts = (FastResponse.prototype as unknown as { _toNodeResponse(this: Response): NodeParts })._toNodeResponse

export interface PlainInit {
  status: number
  statusText: string
  headers: Record<string, string>
}

export class PlainResponse extends FastResponse {
  readonly #body: PlainBody
  readonly #init: PlainInit
  /** Someone read .headers (a Headers made from them, which could be changed): srvx's own conversion then. */
  #read = false

  constructor(body: PlainBody, init: PlainInit) {
    super(body, init)
    this.#body = body
    this.#init = init
  }

  override get headers(): Headers {
    this.#read = true
    return super.headers
  }

  /** What srvx's Node adapter writes: writeHead(status, statusText, headers), then the body. */
  _toNodeResponse(): NodeParts {
    if (this.#read) return srvxParts.call(this)
    const given = this.#init.headers
    const headers: string[] = []
    for (const name in given) headers.push(name, given[name]!)
    const body = this.#body
    if (body !== null) {
      if (given['content-type'] === undefined && typeof body === 'string') headers.push('content-type', 'text/plain; charset=UTF-8')
      if (given['content-length'] === undefined) headers.push('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength))
    }
    return { status: this.#init.status, statusText: this.#init.statusText, headers, body: body ?? undefined }
  }
}
