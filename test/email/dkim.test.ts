import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { inspectDkim } from '../../plugins/email/dkim/dkim-inspect.ts'
import { parseDkimRecord } from '../../plugins/email/dkim/dkim-parse.ts'
import { COMMON_SELECTORS } from '../../plugins/email/dkim/dkim-selectors.ts'
import type { ZoneData } from './rfc7208-zone.ts'
import { zoneDns } from './rfc7208-zone.ts'

const rsa = (bits: number, type: 'spki' | 'pkcs1' = 'spki') => generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ type, format: 'der' }).toString('base64')
const ed25519Raw = () => generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' }).subarray(12).toString('base64')
const RSA2048 = rsa(2048)
const RSA1024 = rsa(1024)
const RSA512 = rsa(512)

describe('parseDkimRecord', () => {
  it.each([
    [`v=DKIM1; k=rsa; p=${RSA2048}`, { key_type: 'rsa', revoked: false, testing: false }, ['rsa', 2048], []],
    [`p=${RSA1024}`, { key_type: 'rsa' }, ['rsa', 1024], []],
    [`v=DKIM1; p=${rsa(2048, 'pkcs1')}`, {}, ['rsa', 2048], []],
    [`v=DKIM1; k=ed25519; p=${ed25519Raw()}`, { key_type: 'ed25519' }, ['ed25519', 256], []],
    [`v=DKIM1; k=rsa; t=y:s; h=sha256; p=${RSA2048.slice(0, 100)} ${RSA2048.slice(100)}`, { testing: true, flags: ['y', 's'], hash_algorithms: ['sha256'] }, ['rsa', 2048], []],
    ['v=DKIM1; k=rsa; p=', { revoked: true, key: null }, null, []],
    ['v=DKIM1; p=not*base64', {}, null, ['p= is not valid base64']],
    [`v=DKIM2; p=${RSA1024}`, {}, ['rsa', 1024], [/the only version is DKIM1/]],
    [`k=rsa; v=DKIM1; p=${RSA1024}`, {}, ['rsa', 1024], [/must be the first tag/]],
    [`v=DKIM1; k=dsa; p=${RSA1024}`, {}, ['rsa', 1024], [/not a key type/, /k=dsa but the key is rsa/]],
    [`v=DKIM1; k=ed25519; p=${RSA1024}`, {}, ['rsa', 1024], [/k=ed25519 but the key is rsa/]],
    [`v=DKIM1; s=tlsrpt; p=${RSA1024}`, { service_types: ['tlsrpt'] }, ['rsa', 1024], [/not for email/]],
    ['v=DKIM1; k=rsa', {}, null, [/required p= tag is missing/]],
  ] as const)('%s', (record, fields, key, problems) => {
    const r = parseDkimRecord(record)
    expect(r).toMatchObject(fields)
    if (key) expect([r.key?.type, r.key?.bits]).toEqual(key)
    expect(r.problems).toHaveLength(problems.length)
    problems.forEach((p, i) => (typeof p === 'string' ? expect(r.problems[i]).toBe(p) : expect(r.problems[i]).toMatch(p)))
  })
})

describe('inspectDkim', () => {
  const zone: ZoneData = {
    'selector1._domainkey.example.com': [{ CNAME: 'selector1-example-com._domainkey.tenant.example.net' }],
    'selector1-example-com._domainkey.tenant.example.net': [{ TXT: `v=DKIM1; k=rsa; p=${RSA2048}` }],
    'old._domainkey.example.com': [{ TXT: 'v=DKIM1; p=' }],
    'k1._domainkey.example.com': [{ TXT: `k=rsa; t=y; p=${RSA1024}` }],
    's1._domainkey.example.com': [{ TXT: `v=DKIM1; p=${RSA512}` }],
    'mail._domainkey.example.com': [{ TXT: 'v=spf1 -all' }],
    'google._domainkey.example.com': ['TIMEOUT'],
  }

  it('tries the common and the requested selectors, following CNAMEs', async () => {
    const d = await inspectDkim(zoneDns(zone), 'example.com', ['old'])
    expect(d.selectors_checked[0]).toBe('old')
    expect(d.selectors_checked).toHaveLength(COMMON_SELECTORS.length + 1)
    const by = Object.fromEntries(d.keys.map((k) => [k.selector, k]))
    expect(by.selector1).toMatchObject({ status: 'found', cname: ['selector1-example-com._domainkey.tenant.example.net'], public_key_type: 'rsa', key_bits: 2048, strength: 'strong' })
    expect(by.old).toMatchObject({ status: 'found', source: 'requested', revoked: true })
    expect(by.k1).toMatchObject({ strength: 'acceptable', testing: true })
    expect(by.s1).toMatchObject({ strength: 'weak', key_bits: 512 })
    expect(by.mail).toMatchObject({ status: 'not_dkim' })
    expect(by.google).toMatchObject({ status: 'dns_error' })
    expect(d.found).toBe(3)
  })

  it('flags weak (critical), short (warning), testing, revoked and DNS errors; most severe first, then in selector order', async () => {
    const d = await inspectDkim(zoneDns(zone), 'example.com', ['old'])
    expect(d.findings.map((f) => `${f.severity} ${f.id}`)).toEqual([
      'critical dkim.weak_key',
      'warning dkim.dns_error',
      'warning dkim.short_key',
      'warning dkim.testing',
      'info dkim.revoked',
    ])
  })

  it('none found is a warning that says how to name a selector', async () => {
    const d = await inspectDkim(zoneDns({}), 'example.com')
    expect(d).toMatchObject({ found: 0, keys: [] })
    expect(d.findings[0]).toMatchObject({ id: 'dkim.none_found', severity: 'warning', fix: expect.stringMatching(/\?selectors=/) })
  })
})
