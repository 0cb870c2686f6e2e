import { validate as uuidValidate } from 'uuid'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { definePlugin } from '../../runtime/define-plugin.ts'
import uuid from '../../registry/utilities/uuid.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// /api/uuid's data is written by its plugin's own JSON encoder (api.encodeJson in
// plugins/utilities/plugin.ts), not by JSON.stringify. It must write what
// JSON.stringify would, and give way to the general path wherever the data is
// not the resolver's own (shaped answers) or the format is not compact JSON.

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=1000000' })
})
afterAll(() => t.close())
afterEach(() => vi.restoreAllMocks())

const hasUuid = (value: unknown): boolean => typeof value === 'object' && value !== null && 'uuid' in value

/** Whether JSON.stringify was asked for the data object (a value with a `uuid` member), or an envelope holding it. */
function stringifiedData(spy: { mock: { calls: unknown[][] } }): boolean {
  return spy.mock.calls.some(([value]) => hasUuid(value) || (typeof value === 'object' && value !== null && hasUuid((value as { data?: unknown }).data)))
}

describe('the uuid encoder', () => {
  it('writes what JSON.stringify writes, for version 4 and 7 (2,000 answers)', async () => {
    for (const version of ['4', '7']) {
      for (let i = 0; i < 1000; i++) {
        const res = await t.request(`/api/uuid?version=${version}`)
        const text = await res.text()
        const body = JSON.parse(text) as { data: { uuid: string; version: number } }
        // The whole compact envelope is JSON.stringify's text of itself: data included.
        expect(text).toBe(JSON.stringify(body))
        expect(uuidValidate(body.data.uuid)).toBe(true)
        expect(body.data.version).toBe(Number(version))
      }
    }
  })

  it('is what answers compact JSON: JSON.stringify never sees the data', async () => {
    const spy = vi.spyOn(JSON, 'stringify')
    const res = await t.request('/api/uuid')
    expect(res.status).toBe(200)
    await res.text()
    expect(stringifiedData(spy)).toBe(false)
  })

  it('gives way to JSON.stringify for shaped data, pretty JSON and other formats, which stay right', async () => {
    const spy = vi.spyOn(JSON, 'stringify')
    const shaped = await t.json('/api/uuid?fields=uuid')
    expect(Object.keys(shaped.body.data)).toEqual(['uuid'])
    expect(uuidValidate(shaped.body.data.uuid)).toBe(true)
    expect(stringifiedData(spy)).toBe(true)
    spy.mockClear()

    const pretty = await (await t.request('/api/uuid?pretty')).text()
    expect(pretty).toContain('\n  "data": {\n    "uuid": "')
    expect(stringifiedData(spy)).toBe(true)

    const yaml = await (await t.request('/api/uuid?format=yaml')).text()
    // quoted when the text could read as a number
    expect(yaml).toMatch(/^ {2}uuid: "?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"?$/m)
  })
})

describe('api.encodeJson', () => {
  it('refuses a second encoder for the same endpoint', async () => {
    const again = definePlugin({ name: 'second-uuid-encoder', dependencies: ['utilities'], setup: (api) => api.encodeJson(uuid, () => '{}') })
    await expect(startTestApp({}, { plugins: [again] })).rejects.toThrow(/Two JSON encoders for "utilities.uuid"/)
  })
})
