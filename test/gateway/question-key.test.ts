import fc from 'fast-check'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Call } from '../../runtime/call.ts'
import { canonicalJson } from '../../runtime/canonical-json.ts'
import { inputKey, questionKey } from '../../runtime/question-key.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// The key of a question (runtime/question-key.ts): the endpoint and its input as
// canonical JSON, the cache's and the in-flight coalescing's key. Kept with the
// pipeline's recent input, so a question asked again by the same path and query
// has its key made once: shown by counting the calls into canonical-json.ts.

const made = vi.hoisted(() => ({ count: 0 }))
vi.mock('../../runtime/canonical-json.ts', async (original) => {
  const real = await original<typeof import('../../runtime/canonical-json.ts')>()
  return {
    canonicalJson: (value: unknown) => {
      made.count++
      return real.canonicalJson(value)
    },
  }
})

/** A JSON value's objects rebuilt with their keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(value).reverse()) out[key] = reversed((value as Record<string, unknown>)[key])
  return { ...out }
}

describe('canonical JSON', () => {
  it('is JSON of the same value, the same text whatever order the keys were set in', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value)
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)))
        expect(canonicalJson(reversed(value))).toBe(text)
      }),
      { numRuns: 300 },
    )
  })

  it('sorts keys at every depth, and keeps undefined members apart from missing ones', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}')
    expect(canonicalJson({ a: undefined })).not.toBe(canonicalJson({}))
    expect(inputKey('dns.a', { domain: 'example.com' })).toBe('dns.a\u0000{"domain":"example.com"}')
  })
})

describe('questionKey', () => {
  const call = (input: Record<string, unknown>, recent?: Call['recent']): Call => ({ endpoint: { name: 'dns.a' }, input, recent }) as unknown as Call

  it('without a recent input, the key of the call input', () => {
    expect(questionKey(call({ domain: 'a.example' }))).toBe(inputKey('dns.a', { domain: 'a.example' }))
  })

  it('with one, made from the kept input (not the call copy, which a layer may have changed) and kept with it', () => {
    const recent = { input: { domain: 'kept.example' }, key: undefined as string | undefined }
    const key = questionKey(call({ domain: 'changed.example' }, recent))
    expect(key).toBe(inputKey('dns.a', { domain: 'kept.example' }))
    expect(recent.key).toBe(key)
    // Read back, not made again.
    recent.key = 'dns.a\u0000kept'
    expect(questionKey(call({ domain: 'kept.example' }, recent))).toBe('dns.a\u0000kept')
  })
})

describe('a cached endpoint asked the same question again', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
  })
  afterAll(() => t.close())
  beforeEach(() => {
    made.count = 0
  })

  it('makes its key once, and answers from the cache', async () => {
    const answers: Array<{ data: unknown; meta: { cache: string } }> = []
    for (let i = 0; i < 4; i++) {
      const res = await t.app.request('/api/data/ports?port=22&protocol=tcp')
      expect(res.status).toBe(200)
      answers.push((await res.json()) as { data: unknown; meta: { cache: string } })
    }
    expect(made.count).toBe(1)
    expect(answers.map((a) => a.meta.cache)).toEqual(['miss', 'hit', 'hit', 'hit'])
    expect(new Set(answers.map((a) => JSON.stringify(a.data))).size).toBe(1)
    // The same question by another query (the order of its parameters): another
    // path and query, so its input and key are made afresh, and the key is the same.
    const res = await t.app.request('/api/data/ports?protocol=tcp&port=22')
    expect(((await res.json()) as { meta: { cache: string } }).meta.cache).toBe('hit')
    expect(made.count).toBe(2)
  })
})
