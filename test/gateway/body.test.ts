import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

const post = (body: BodyInit | null, headers: Record<string, string> = {}) => t.json('/api/test/echo', { method: 'POST', body, headers, duplex: 'half' } as RequestInit)

describe('request bodies (json-or-lines, 1 KiB limit on the fixture)', () => {
  it('a JSON object, a JSON array, or text one entry per line', async () => {
    expect((await post(JSON.stringify({ entries: ['a', 'b'] }), { 'content-type': 'application/json' })).body.data).toEqual({ entries: ['a', 'b'] })
    expect((await post(JSON.stringify(['x', 'y']))).body.data).toEqual({ entries: ['x', 'y'] })
    expect((await post('one\r\ntwo\n\n  three  \n# comment\n', { 'content-type': 'text/plain' })).body.data).toEqual({ entries: ['one', 'two', 'three'] })
  })

  it('empty body and broken JSON are 400s that say so', async () => {
    const empty = await post('')
    expect(empty.status).toBe(400)
    expect(empty.body.error.message).toMatch(/body is empty/)
    const broken = await post('{"entries": [', { 'content-type': 'application/json' })
    expect(broken.status).toBe(400)
    expect(broken.body.error.message).toMatch(/not valid JSON/)
    const wrong = await post(JSON.stringify({ nope: 1 }))
    expect(wrong.status).toBe(400)
    expect(wrong.body.error.details.param).toBe('body')
  })

  it('too large: 413 payload_too_large, by declared length or while streaming', async () => {
    const big = 'x\n'.repeat(600)
    const declared = await post(big)
    expect(declared.status).toBe(413)
    expect(declared.body.error).toMatchObject({ code: 'payload_too_large', details: { max_bytes: 1024 } })
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode('y\n'.repeat(100)))
        controller.close()
      },
    })
    const streamed = await post(stream)
    expect(streamed.status).toBe(413)
  })
})
