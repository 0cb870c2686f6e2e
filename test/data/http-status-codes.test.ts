import { STATUS_CODES } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t.close())

interface Row {
  code: number
  reason: string
  node_reason: string | null
  class: string
  registered: boolean
  status: string
  rfc: string | null
  section: string | null
}

describe('GET /api/data/http-status-codes', () => {
  it('lists codes with the IANA description, Node\'s reason, class and RFC', async () => {
    const res = await t.json('/api/data/http-status-codes')
    expect(res.status).toBe(200)
    const d = res.body.data
    const byCode = new Map((d.codes as Row[]).map((r) => [r.code, r]))
    expect(byCode.get(404)).toEqual({ code: 404, reason: 'Not Found', node_reason: 'Not Found', class: 'client-error', registered: true, status: 'active', rfc: 'RFC 9110', section: '15.5.5' })
    expect(byCode.get(413)).toMatchObject({ reason: 'Content Too Large', node_reason: 'Payload Too Large', rfc: 'RFC 9110' })
    expect(byCode.get(418)).toMatchObject({ reason: '(Unused)', node_reason: "I'm a Teapot", status: 'unused' })
    expect(byCode.get(429)).toMatchObject({ reason: 'Too Many Requests', rfc: 'RFC 6585' })
    expect(byCode.get(451)).toMatchObject({ rfc: 'RFC 7725' })
    expect(byCode.get(509)).toMatchObject({ registered: false, status: 'unregistered', rfc: null, node_reason: 'Bandwidth Limit Exceeded' })
    expect(byCode.get(103)).toMatchObject({ class: 'informational', rfc: 'RFC 8297' })
    expect(d.count).toBe(d.codes.length)
    expect(d.source.url).toBe('https://www.iana.org/assignments/http-status-codes/http-status-codes.xhtml')
    // Every code Node knows is listed, with Node's text.
    for (const [code, text] of Object.entries(STATUS_CODES)) expect(byCode.get(Number(code))?.node_reason, code).toBe(text)
    const classes = { 1: 'informational', 2: 'successful', 3: 'redirection', 4: 'client-error', 5: 'server-error' } as Record<number, string>
    for (const r of d.codes as Row[]) expect(r.class).toBe(classes[Math.floor(r.code / 100)])
    expect((d.codes as Row[]).map((r) => r.code)).toEqual([...byCode.keys()].sort((a, b) => a - b))
  })

  it('pages and serializes as CSV', async () => {
    const res = await t.json('/api/data/http-status-codes?limit=2&offset=3')
    expect(res.body.data.codes.map((r: Row) => r.code)).toEqual([103, 104])
    const csv = (await (await t.request('/api/data/http-status-codes?format=csv&fields=codes')).text()).split('\r\n')
    expect(csv[0]).toBe('codes.code,codes.reason,codes.node_reason,codes.class,codes.registered,codes.status,codes.rfc,codes.section')
    expect(csv).toContain('200,OK,OK,successful,true,active,RFC 9110,15.3.1')
  })
})
