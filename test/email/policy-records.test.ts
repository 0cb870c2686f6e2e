import { describe, expect, it } from 'vitest'
import { parseStsPolicy, patternMatches } from '../../plugins/email/mta-sts/mta-sts-policy.ts'
import { inspectBimi } from '../../plugins/email/records/bimi.ts'
import { inspectTlsRpt } from '../../plugins/email/records/tls-rpt.ts'
import { parseTagList } from '../../plugins/email/tag-list.ts'
import { zoneDns } from './rfc7208-zone.ts'

describe('tag lists', () => {
  it('keeps order, flags malformed segments and duplicates, tolerates ;; and a trailing ;', () => {
    expect(parseTagList(' v = DMARC1 ;p=reject;; p=none; oops ; ')).toEqual({
      tags: [
        { name: 'v', key: 'v', value: 'DMARC1' },
        { name: 'p', key: 'p', value: 'reject' },
        { name: 'p', key: 'p', value: 'none' },
      ],
      malformed: ['oops'],
      duplicates: ['p'],
    })
  })
})

describe('MTA-STS policy', () => {
  it('parses a valid policy (CRLF or LF)', () => {
    expect(parseStsPolicy('version: STSv1\r\nmode: enforce\r\nmx: mail.example.com\r\nmx: *.example.net\r\nmax_age: 604800\r\n')).toEqual({
      version: 'STSv1',
      mode: 'enforce',
      max_age: 604800,
      mx: ['mail.example.com', '*.example.net'],
      problems: [],
    })
    expect(parseStsPolicy('version: STSv1\nmode: none\nmax_age: 86400\n').problems).toEqual([])
  })

  it.each([
    ['mode: enforce\nmx: a.example.com\nmax_age: 1\n', /version is missing/],
    ['version: STSv2\nmode: enforce\nmx: a.example.com\nmax_age: 1', /only version is STSv1/],
    ['version: STSv1\nmode: strict\nmx: a.example.com\nmax_age: 1', /must be enforce, testing or none/],
    ['version: STSv1\nmode: enforce\nmx: a.example.com\nmax_age: 99999999999', /max_age/],
    ['version: STSv1\nmode: enforce\nmax_age: 86400', /no mx lines/],
    ['version: STSv1\nmode: enforce\nmx: *.*.example.com\nmax_age: 86400', /not a host name/],
    ['version: STSv1\nmode: enforce\nmode: testing\nmx: a.example.com\nmax_age: 86400', /appears more than once/],
    ['<html>not a policy</html>', /not "key: value"/],
  ])('%j -> %s', (text, problem) => expect(parseStsPolicy(text).problems.join(' | ')).toMatch(problem))

  it.each([
    ['mail.example.com', 'mail.example.com', true],
    ['mail.example.com', 'MAIL.Example.com.', true],
    ['*.example.com', 'mx1.example.com', true],
    ['*.example.com', 'example.com', false],
    ['*.example.com', 'a.b.example.com', false],
    ['mail.example.com', 'mail2.example.com', false],
  ])('%s covers %s: %s', (pattern, host, expected) => expect(patternMatches(pattern, host)).toBe(expected))
})

describe('TLS-RPT', () => {
  it.each([
    ['v=TLSRPTv1; rua=mailto:tls@example.com', 'found', []],
    ['v=TLSRPTv1; rua=mailto:tls@example.com,https://reports.example.net/tls', 'found', []],
    ['v=TLSRPTv1;', 'invalid', ['tls_rpt.invalid']],
    ['v=TLSRPTv1; rua=ftp://x', 'invalid', ['tls_rpt.invalid']],
  ])('%s -> %s', async (record, status, ids) => {
    const d = await inspectTlsRpt(zoneDns({ '_smtp._tls.example.com': [{ TXT: record }] }), 'example.com', true)
    expect(d.status).toBe(status)
    expect(d.findings.map((f) => f.id)).toEqual(ids)
  })
  it('missing is a warning only when MTA-STS is published', async () => {
    expect((await inspectTlsRpt(zoneDns({}), 'example.com', true)).findings[0]).toMatchObject({ id: 'tls_rpt.missing', severity: 'warning' })
    expect((await inspectTlsRpt(zoneDns({}), 'example.com', false)).findings[0]).toMatchObject({ id: 'tls_rpt.missing', severity: 'info' })
  })
})

describe('BIMI', () => {
  const enforcing = { applied_policy: 'reject' as const, pct: 100, sp: 'reject' as const }
  it.each([
    ['v=BIMI1; l=https://example.com/logo.svg; a=https://example.com/vmc.pem', enforcing, 'found', []],
    ['v=BIMI1; l=https://example.com/logo.svg', enforcing, 'found', ['bimi.no_certificate']],
    ['v=BIMI1; l=http://example.com/logo.png', enforcing, 'invalid', ['bimi.logo_url', 'bimi.no_certificate']],
    ['v=BIMI1; l=; a=', enforcing, 'declined', ['bimi.declined']],
    ['v=BIMI1; l=https://example.com/logo.svg; a=https://example.com/vmc.pem', { applied_policy: 'none' as const, pct: 100, sp: 'none' as const }, 'found', ['bimi.dmarc_not_enforced']],
  ])('%s', async (record, dmarc, status, ids) => {
    const d = await inspectBimi(zoneDns({ 'default._bimi.example.com': [{ TXT: record }] }), 'example.com', dmarc)
    expect(d.status).toBe(status)
    expect(d.findings.map((f) => f.id)).toEqual(ids)
  })
})
