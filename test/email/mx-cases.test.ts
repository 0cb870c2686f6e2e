import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MxData } from '../../registry/email/schemas/mx-data.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'

// The MX edge cases of RFC 5321 §5.1 and RFC 7505, each a name in the loopback DNS,
// through /api/email/mx. mx.mxcases.test is a usable host (loopback is reachable in
// tests); no server has its reverse zone, so its FCrDNS check errs and is not reported.

const ZONE = `
$ORIGIN mxcases.test.
$TTL 300
@          IN SOA ns1 hostmaster ( 1 3600 900 604800 300 )
@          IN NS  ns1
ns1        IN A   127.0.0.53
mx         IN A   127.0.25.77
iplit      IN MX  10 192.0.2.25.
nullmx     IN MX  0 .
nullmixed  IN MX  0 .
nullmixed  IN MX  10 mx
implicit   IN A   127.0.25.80
nomail     IN TXT "no mail here"
`

let dns: LoopbackDns
let t: TestApp
beforeAll(async () => {
  dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, ZONE] })
  t = await startTestApp({ ...dns.env, INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(async () => {
  await t.close()
  await dns.close()
})

interface Case {
  status: string
  null_mx: boolean
  implicit_mx: boolean
  accepts_mail: boolean
  /** preference exchange status */
  records: string[]
  /** severity id, most severe first */
  findings: string[]
}

describe('MX edge cases', () => {
  it.each<[string, Case]>([
    [
      'iplit.mxcases.test',
      { status: 'answer', null_mx: false, implicit_mx: false, accepts_mail: false, records: ['10 192.0.2.25 ip_literal'], findings: ['critical mx.unreachable', 'error mx.ip_literal'] },
    ],
    ['nullmx.mxcases.test', { status: 'answer', null_mx: true, implicit_mx: false, accepts_mail: false, records: ['0 . null'], findings: ['info mx.null'] }],
    [
      'nullmixed.mxcases.test',
      {
        status: 'answer',
        null_mx: true,
        implicit_mx: false,
        accepts_mail: true,
        records: ['0 . null', '10 mx.mxcases.test ok'],
        findings: ['error mx.null_mixed', 'info mx.single'],
      },
    ],
    ['implicit.mxcases.test', { status: 'nodata', null_mx: false, implicit_mx: true, accepts_mail: true, records: [], findings: ['warning mx.implicit'] }],
    ['nomail.mxcases.test', { status: 'nodata', null_mx: false, implicit_mx: false, accepts_mail: false, records: [], findings: ['warning mx.none'] }],
    ['gone.mxcases.test', { status: 'nxdomain', null_mx: false, implicit_mx: false, accepts_mail: false, records: [], findings: ['warning mx.none'] }],
  ])('%s', async (domain, want) => {
    const res = await t.json(`/api/email/mx/${domain}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const d = res.body.data
    expect(MxData.safeParse(d).success).toBe(true)
    expect({
      status: d.status,
      null_mx: d.null_mx,
      implicit_mx: d.implicit_mx,
      accepts_mail: d.accepts_mail,
      records: d.records.map((r: { preference: number; exchange: string; status: string }) => `${r.preference} ${r.exchange} ${r.status}`),
      findings: d.findings.map((f: { severity: string; id: string }) => `${f.severity} ${f.id}`),
    }).toEqual(want)
  })

  it('the messages name what to change', async () => {
    const literal = (await t.json('/api/email/mx/iplit.mxcases.test')).body.data
    expect(literal.findings.find((f: { id: string }) => f.id === 'mx.ip_literal')).toMatchObject({ message: expect.stringContaining('"192.0.2.25"'), fix: expect.stringContaining('mx.iplit.mxcases.test') })
    const mixed = (await t.json('/api/email/mx/nullmixed.mxcases.test')).body.data
    expect(mixed.findings[0]).toMatchObject({ id: 'mx.null_mixed', message: expect.stringContaining('beside 1 other MX record') })
    expect(mixed.records[1]).toMatchObject({ exchange: 'mx.mxcases.test', addresses: ['127.0.25.77'], refused_addresses: [] })
  })

  it('health: a null MX alone takes STARTTLS out of the score; beside another MX it does not', async () => {
    const alone = (await t.json('/api/email/health/nullmx.mxcases.test')).body.data
    expect(alone).toMatchObject({ receives_mail: false, parts: { tls: { applicable: false } } })
    const mixed = (await t.json('/api/email/health/nullmixed.mxcases.test')).body.data
    expect(mixed).toMatchObject({ receives_mail: true, parts: { tls: { applicable: true } } })
  })
})
