import { describe, expect, it } from 'vitest'
import { emailAnswer, NETWORKS_SHARE } from '../../plugins/report/areas/email.ts'
import { issuanceAnswer } from '../../plugins/report/areas/issuance.ts'
import { networkAnswer } from '../../plugins/report/areas/network.ts'

// The report's network and issuance areas and the email area's sender networks
// (issue 25, item 5), on answers written here as their endpoints give them.

const dependencies = (over: Record<string, unknown> = {}) => ({ domain: 'example.test', dependencies: [], lookups: [], findings: [], errors: [], skipped: [], ...over }) as any
const failed = { part: 'NS example.test', code: 'upstream_error', message: 'refused', upstream: 'dns', reason: 'refused' }

describe('network area', () => {
  it('100 minus its findings, each with a fix', () => {
    const a = networkAnswer(dependencies({ findings: [{ id: 'dependencies.rpki_invalid', severity: 'high', message: 'm', evidence: [] }, { id: 'dependencies.ns_single_as', severity: 'low', message: 'm', evidence: [] }] }))
    expect(a.score).toBe(100 - 25 - 5)
    expect(a.findings.map((f) => [f.area, f.id, f.severity, typeof f.fix])).toEqual([['network', 'dependencies.rpki_invalid', 'high', 'string'], ['network', 'dependencies.ns_single_as', 'low', 'string']])
  })
  it('every DNS question failed: the area fails, it is no clean bill', () => {
    expect(() => networkAnswer(dependencies({ lookups: [{ role: 'ns', name: 'example.test', type: 'NS', status: 'failed', count: 0 }], errors: [failed] }))).toThrow(/No DNS question/)
  })
})

const issuance = (over: Record<string, unknown> = {}) =>
  ({ domain: 'example.test', caa: { relevant_name: null, records: [], issue: [], issuewild: null, complete: true, lookups: [] }, served: null, logged: null, names: [], findings: [], errors: [], skipped: [], ...over }) as any

describe('issuance area', () => {
  it('100 minus its findings; info costs nothing', () => {
    const a = issuanceAnswer(issuance({ findings: [{ id: 'issuance.served_not_authorized', severity: 'high', message: 'm', evidence: [] }, { id: 'issuance.issuer_unknown', severity: 'info', message: 'm', evidence: [] }] }))
    expect(a.score).toBe(75)
    expect(a.summary).toBe('no CAA; served: not read; CT: not read')
  })
  it('CAA, CT and the served certificate all unknown: the area fails', () => {
    expect(() => issuanceAnswer(issuance({ caa: { relevant_name: null, records: [], issue: [], issuewild: null, complete: false, lookups: [] }, errors: [failed] }))).toThrow(/No part of the issuance check/)
  })
})

describe('email area with the sender networks', () => {
  const health = { score: 90, grade: 'A-', findings: [], parts: Object.fromEntries(['spf', 'dmarc', 'dkim', 'mx', 'tls'].map((p) => [p, { applicable: true, score: 90, summary: '' }])) } as any
  it(`${100 - NETWORKS_SHARE * 100} % health, ${NETWORKS_SHARE * 100} % the networks part (100 minus its findings); the grade stays health's`, () => {
    const networks = { networks: [], mx: [], findings: [{ id: 'email_networks.mx_listed', severity: 'high', message: 'm', evidence: [] }] } as any
    const a = emailAnswer(health, networks)
    expect(a.score).toBe(Math.round(0.8 * 90 + 0.2 * 75))
    expect(a.grade).toBe('A-')
    expect(a.findings).toEqual([{ area: 'email', id: 'email_networks.mx_listed', severity: 'high', message: 'm', fix: expect.any(String) }])
  })
  it('without the networks part (it failed): health alone', () => {
    expect(emailAnswer(health, null)).toMatchObject({ score: 90, summary: expect.stringContaining('sender networks not read') })
  })
})
