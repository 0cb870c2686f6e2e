import fc from 'fast-check'
import { FastResponse } from 'srvx'
import { describe, expect, it } from 'vitest'
import type { PlainBody } from '../../runtime/http/plain-response.ts'
import { PlainResponse } from '../../runtime/http/plain-response.ts'

// runtime/http/plain-response.ts converts a routed answer for srvx's Node adapter
// by hand: it must hand Node exactly what srvx's own conversion of the same
// response would (status, headers in order, body), and still be a Response to
// everything else.

type Parts = { status: number; statusText: string; headers: string[]; body: unknown }
const parts = (res: Response): Parts => (res as unknown as { _toNodeResponse(): Parts })._toNodeResponse()

const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/)
const headerValue = fc.stringMatching(/^[\x21-\x7e][\x20-\x7e]{0,30}$/)
const headers = fc.dictionary(headerName, headerValue, { maxKeys: 10 })
const body: fc.Arbitrary<PlainBody> = fc.oneof(
  fc.constant(null),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.uint8Array({ maxLength: 64 }).map((b) => new Uint8Array(b)),
)
const status = fc.constantFrom(200, 304, 404, 429)

describe('PlainResponse', () => {
  it('hands Node what srvx FastResponse would, for any body and headers', () => {
    fc.assert(
      fc.property(body, headers, status, (b, h, s) => {
        const init = { status: s, statusText: 'X', headers: h }
        const ours = parts(new PlainResponse(b, { ...init, headers: { ...h } }))
        const srvx = parts(new FastResponse(b, { ...init, headers: { ...h } }))
        expect(ours).toEqual(srvx)
      }),
      { numRuns: 2000 },
    )
  })

  it('counts content-length in UTF-8 bytes, not characters', () => {
    const res = new PlainResponse('é😀', { status: 200, statusText: 'OK', headers: { 'content-type': 'text/plain' } })
    expect(parts(res).headers).toEqual(['content-type', 'text/plain', 'content-length', '6'])
  })

  it('is a Response to everyone else: status, headers, body', async () => {
    const res = new PlainResponse('{"a":1}', { status: 201, statusText: 'Created', headers: { 'content-type': 'application/json', 'x-request-id': 'r1' } })
    expect(res).toBeInstanceOf(Response)
    expect(res.status).toBe(201)
    expect(res.headers.get('x-request-id')).toBe('r1')
    expect(await res.json()).toEqual({ a: 1 })
  })

  it('headers changed through .headers are sent (srvx’s own conversion then)', () => {
    const res = new PlainResponse('hi', { status: 200, statusText: 'OK', headers: { 'content-type': 'text/plain' } })
    res.headers.set('x-added', 'yes')
    const sent = parts(res).headers
    expect(sent).toContain('x-added')
    expect(sent[sent.indexOf('x-added') + 1]).toBe('yes')
  })
})
