import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseDkimRecord } from '../../plugins/email/dkim/dkim-parse.ts'
import { isDmarcRecord, parseDmarc } from '../../plugins/email/dmarc/dmarc-parse.ts'
import { checkHost } from '../../plugins/email/spf/spf-evaluate.ts'
import { inspectSpf } from '../../plugins/email/spf/spf-inspect.ts'
import { isSpfRecord, parseSpf } from '../../plugins/email/spf/spf-parse.ts'
import type { ZoneData } from './rfc7208-zone.ts'
import { zoneDns } from './rfc7208-zone.ts'

/** %{t} expands to the clock's seconds; a fixed instant keeps answers the same on any day. */
const NOW = 1_800_000_000

// Records recorded from real DNS (test/fixtures/email/SOURCES.md): every SPF,
// DMARC and DKIM record in them parses without error, keys decode to their real
// sizes, and the recorded SPF trees evaluate.

const FIXTURES = join(import.meta.dirname, '../fixtures/email')

const blaze: Record<string, string[]> = Object.fromEntries(
  readdirSync(join(FIXTURES, 'dns_txt_cache_blaze')).map((file) => [
    file.replace(/\.dns$/, ''),
    readFileSync(join(FIXTURES, 'dns_txt_cache_blaze', file), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('txt:'))
      .map((l) => l.slice(4)),
  ]),
)

const mailAuth: Array<[string, string]> = readdirSync(join(FIXTURES, 'dkim')).flatMap((file) =>
  readFileSync(join(FIXTURES, 'dkim', file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => [l.slice(0, l.indexOf(' ')), l.slice(l.indexOf(' ') + 1)] as [string, string]),
)

const records = Object.entries(blaze).flatMap(([name, texts]) => texts.map((text) => ({ name, text })))
const spf = records.filter((r) => isSpfRecord(r.text))
const dmarc = records.filter((r) => isDmarcRecord(r.text))
const dkim = [...records.filter((r) => r.name.includes('._domainkey.')), ...mailAuth.map(([name, text]) => ({ name, text }))]

describe('real SPF records', () => {
  it('the fixtures hold a dozen', () => expect(spf.length).toBeGreaterThanOrEqual(12))
  it.each(spf.map((r) => [r.name, r.text]))('%s parses without error', (_name, text) => {
    expect(parseSpf(text).errors).toEqual([])
  })

  const zone: ZoneData = Object.fromEntries(Object.entries(blaze).map(([name, texts]) => [name, texts.map((t) => ({ TXT: t }))]))

  it('janestreet.com: the recorded tree is complete, 7 lookups, Google addresses pass', async () => {
    const d = await inspectSpf(zoneDns(zone), 'janestreet.com', { now: NOW })
    expect(d.tree.map((n) => n.domain)).toEqual([
      'janestreet.com',
      'bloomberg.net',
      '_spf.google.com',
      '_netblocks.google.com',
      '_netblocks2.google.com',
      '_netblocks3.google.com',
      'aspmx.pardot.com',
      'et._spf.pardot.com',
    ])
    expect(d).toMatchObject({ verdict: 'valid', all: '-all', lookups: { count: 7, void_count: 0 } })
    const google = await checkHost(zoneDns(zone), 'janestreet.com', { ip: '74.125.1.1', sender: 'x@janestreet.com', helo: 'mail.google.com', now: NOW })
    expect(google).toMatchObject({ result: 'pass', matched: { term: 'include:_spf.google.com' }, dns_lookups: 3 })
    const v6 = await checkHost(zoneDns(zone), 'janestreet.com', { ip: '2a00:1450:4000::1', sender: 'x@janestreet.com', helo: 'h', now: NOW })
    expect(v6.result).toBe('pass')
    const stranger = await checkHost(zoneDns(zone), 'janestreet.com', { ip: '203.0.113.9', sender: 'x@janestreet.com', helo: 'h', now: NOW })
    expect(stranger).toMatchObject({ result: 'fail', dns_lookups: 7 })
  })

  it('discoursemail.com: ptr flagged, the missing include (not recorded) is a permerror', async () => {
    const d = await inspectSpf(zoneDns(zone), 'discoursemail.com', { now: NOW })
    expect(d.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['spf.ptr', 'spf.include_no_record']))
  })
})

describe('real DMARC records', () => {
  it.each(dmarc.map((r) => [r.name, r.text]))('%s parses without problems', (_name, text) => {
    const parsed = parseDmarc(text)
    expect(parsed.problems).toEqual([])
    expect(['quarantine', 'reject']).toContain(parsed.policy.p)
    expect(parsed.policy.rua[0]).toMatchObject({ scheme: 'mailto', valid: true })
  })
})

describe('real DKIM keys', () => {
  const expected: Record<string, [string, number]> = {
    'arc-20160816._domainkey.google.com': ['rsa', 2048],
    'arc-20240116._domainkey.subspace.kernel.org': ['rsa', 1024],
    'arcselector10001._domainkey.microsoft.com': ['rsa', 2048],
    'brisbane._domainkey.football.example.com': ['ed25519', 256],
    'test._domainkey.football.example.com': ['rsa', 1024],
    'sjc2._domainkey.discoursemail.com': ['rsa', 2048],
    'k1._domainkey.mcc.mcsv.net': ['rsa', 2048],
    'whs1._domainkey.webhostingserver.nl': ['rsa', 2048],
    'ietf1._domainkey.ietf.org': ['rsa', 1024],
    'dk2016._domainkey.github.com': ['rsa', 1024],
  }
  it.each(dkim.map((r) => [r.name, r.text]))('%s parses and its key decodes', (name, text) => {
    const parsed = parseDkimRecord(text)
    expect(parsed.problems).toEqual([])
    expect(parsed.key?.error).toBeNull()
    const want = expected[name]
    if (want) expect([parsed.key?.type, parsed.key?.bits]).toEqual(want)
  })
  it('reads flags: s20150108._domainkey.github.com is t=s, facebookmail h=sha256', () => {
    expect(parseDkimRecord(blaze['s20150108._domainkey.github.com']![0]!).flags).toEqual(['s'])
    const fb = mailAuth.find(([n]) => n.startsWith('s1024-2013-q3'))!
    expect(parseDkimRecord(fb[1]).hash_algorithms).toEqual(['sha256'])
  })
})
