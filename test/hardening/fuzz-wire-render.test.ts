import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { WireMutation } from './fuzz-wire.ts'
import { render } from './fuzz-wire.ts'

// The wire fuzzer's own rendering (fuzz-wire.ts): a request is half-closed after
// its bytes exactly when it promises more body than it sends, so the server sees
// the end instead of waiting. Any other request half-closed is a client going
// away, and Node (httpAllowHalfOpen false) drops it unanswered: CI once failed on
// a long Content-Length later replaced by chunked framing that kept the half-close.

const FRAMINGS = ['short-length', 'long-length', 'two-lengths', 'negative-length', 'chunked', 'bad-chunk', 'chunk-extension', 'chunked-and-length', 'te-identity', 'expect-continue'] as const
const framing = fc.constantFrom(...FRAMINGS).map((style): WireMutation => ({ kind: 'framing', style }))

/** The framing lines and the body of the rendered bytes (no mutation here touches line ends or adds odd headers). */
function readFraming(bytes: Buffer): { lengths: number[]; chunked: boolean; body: number } {
  const end = bytes.indexOf('\r\n\r\n')
  const lines = bytes.subarray(0, end).toString('latin1').split('\r\n')
  const lengths = lines.filter((l) => l.startsWith('Content-Length: ')).map((l) => Number(l.slice('Content-Length: '.length)))
  return { lengths, chunked: lines.some((l) => l.startsWith('Transfer-Encoding: ')), body: bytes.length - end - 4 }
}

describe('the wire fuzzer renders its framing', () => {
  it('half-closes exactly the requests whose one Content-Length promises more than the body', () => {
    fc.assert(
      fc.property(fc.array(framing, { maxLength: 4 }), fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), (mutations, body) => {
        const wire = render({ method: body === undefined ? 'GET' : 'POST', target: '/api/health', headers: [], body }, mutations, '127.0.0.1')
        const { lengths, chunked, body: sent } = readFraming(wire.bytes)
        const promisesMore = !chunked && lengths.length === 1 && lengths[0]! > sent
        expect(wire.halfClose).toBe(promisesMore)
      }),
      { numRuns: 500 },
    )
  })

  it('drops the half-close when chunked framing replaces a long Content-Length (the CI failure)', () => {
    const wire = render({ method: 'GET', target: '/api/health', headers: [], body: undefined }, [{ kind: 'framing', style: 'chunked-and-length' }, { kind: 'framing', style: 'long-length' }, { kind: 'framing', style: 'chunked' }], '127.0.0.1')
    expect(wire.halfClose).toBe(false)
    expect(wire.bytes.toString('latin1')).toContain('Transfer-Encoding: chunked\r\nConnection: close\r\n\r\na\r\n')
  })
})
