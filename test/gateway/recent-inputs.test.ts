import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import base64Encode from '../../registry/utilities/base64-encode.ts'
import { RECENT_INPUTS, RECENT_INPUT_KEY_CHARS } from '../../runtime/pipeline.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// The pipeline keeps the validated inputs of recent calls by path and query
// (runtime/pipeline.ts, recentInputs): the same question again skips the schema.
// Shown by counting the descriptor schema's safeParse calls; the answers must be
// the ones a fresh validation gives, refusals are never kept, and what is kept is
// bounded (oldest out first, short paths only).

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t.close())
afterEach(() => vi.restoreAllMocks())

async function encode(query: string): Promise<{ status: number; data?: { output: string; variant: string; input_bytes: number }; error?: { code: string } }> {
  const res = await t.app.request(`/api/base64/encode?${query}`)
  const body = (await res.json()) as { data?: { output: string; variant: string; input_bytes: number }; error?: { code: string } }
  return { status: res.status, ...body }
}

describe('recent validated inputs', () => {
  it('the same path and query are validated once; the answers are the same as a fresh validation gives', async () => {
    const parse = vi.spyOn(base64Encode.params, 'safeParse')
    const first = await encode('input=recent-1&variant=url')
    const second = await encode('input=recent-1&variant=url')
    expect(parse).toHaveBeenCalledTimes(1)
    expect(first.data).toEqual({ output: Buffer.from('recent-1').toString('base64url'), variant: 'url', input_bytes: 8 })
    expect(second.data).toEqual(first.data)
    // Another query is another question.
    const other = await encode('input=recent-1')
    expect(parse).toHaveBeenCalledTimes(2)
    expect(other.data).toEqual({ output: Buffer.from('recent-1').toString('base64'), variant: 'standard', input_bytes: 8 })
  })

  it('refused input is validated (and refused) every time, and does not stand in for a good one', async () => {
    const parse = vi.spyOn(base64Encode.params, 'safeParse')
    for (let i = 0; i < 3; i++) {
      const refused = await encode('input=recent-2&variant=sideways')
      expect(refused.status).toBe(400)
      expect(refused.error?.code).toBe('bad_request')
    }
    expect(parse).toHaveBeenCalledTimes(3)
    expect((await encode('input=recent-2&variant=url')).status).toBe(200)
    expect((await encode('input=recent-2&variant=sideways')).status).toBe(400)
    expect(parse).toHaveBeenCalledTimes(5)
  })

  it(`keeps at most ${RECENT_INPUTS} per endpoint, the oldest leaving first`, async () => {
    await encode('input=recent-oldest')
    for (let i = 0; i < RECENT_INPUTS; i++) await encode(`input=recent-fill-${i}`)
    const parse = vi.spyOn(base64Encode.params, 'safeParse')
    await encode(`input=recent-fill-${RECENT_INPUTS - 1}`)
    expect(parse).toHaveBeenCalledTimes(0)
    const again = await encode('input=recent-oldest')
    expect(parse).toHaveBeenCalledTimes(1)
    expect(again.data?.output).toBe(Buffer.from('recent-oldest').toString('base64'))
  })

  it(`a path and query longer than ${RECENT_INPUT_KEY_CHARS} characters is validated every time`, async () => {
    const parse = vi.spyOn(base64Encode.params, 'safeParse')
    const long = 'x'.repeat(RECENT_INPUT_KEY_CHARS)
    for (let i = 0; i < 2; i++) expect((await encode(`input=${long}`)).data?.input_bytes).toBe(RECENT_INPUT_KEY_CHARS)
    expect(parse).toHaveBeenCalledTimes(2)
  })
})
