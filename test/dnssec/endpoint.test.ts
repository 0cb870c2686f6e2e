import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DnssecData } from '../../registry/dns/schemas/dnssec-data.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { startSignedTree, type SignedTree } from '../support/dnssec-fixtures.ts'

let tree: SignedTree
let t: TestApp
beforeAll(async () => {
  tree = await startSignedTree()
  t = await startTestApp({ ...tree.env, INFRALENS_DNS_TIMEOUT_MS: '300', INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(async () => {
  await t.close()
  await tree.close()
})
beforeEach(() => tree.server.setFault(null))

describe('/api/dns/dnssec', () => {
  it('answers the verdict with the chain, in the documented shape, by path and by ?domain=', async () => {
    const res = await t.json('/api/dns/dnssec/www.ecdsap256.test')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(DnssecData.safeParse(res.body.data).success).toBe(true)
    expect(res.body.data).toMatchObject({ domain: 'www.ecdsap256.test', type: 'A', status: 'secure', reason: null, insecure_at: null, bogus_at: null })
    expect(res.body.meta).toMatchObject({ endpoint: 'dns.dnssec', category: 'dns', cache: 'miss' })
    const alias = await t.json('/api/dns/dnssec?domain=WWW.ECDSAP256.TEST.')
    expect(alias.body.data.domain).toBe('www.ecdsap256.test')
    expect(alias.body.meta.cache).toBe('hit')
  })

  it('bogus and insecure are answers (200), with where and why', async () => {
    const bogus = await t.json('/api/dns/dnssec/www.wrong-ds.test')
    expect(bogus.status).toBe(200)
    expect(bogus.body.data).toMatchObject({ status: 'bogus', reason: 'ds_dnskey_mismatch', bogus_at: 'wrong-ds.test' })
    const insecure = await t.json('/api/dns/dnssec/www.unsigned.nsec3.test')
    expect(insecure.body.data).toMatchObject({ status: 'insecure', reason: 'unsigned_delegation', insecure_at: 'unsigned.nsec3.test' })
  })

  it('query controls act on the chain and findings lists', async () => {
    const res = await t.json('/api/dns/dnssec/www.rsasha256.test?fields=status,chain.zone,findings.code')
    expect(res.body.data).toEqual({
      status: 'secure',
      chain: [{ zone: '.' }, { zone: 'test' }, { zone: 'rsasha256.test' }],
      findings: [{ code: 'ds_digest_sha1' }, { code: 'rsa_key_small' }],
    })
    const csv = await t.request('/api/dns/dnssec/www.rsasha256.test?format=csv')
    expect(csv.status).toBe(200)
    expect((await csv.text()).split('\n')[0]).toMatch(/,chain\.zone,chain\.status,chain\.trust/)
  })

  it('a resolver that answers SERVFAIL gives indeterminate; one that does not answer gives 502', async () => {
    tree.server.setFault({ kind: 'servfail', name: 'ed448.test' })
    const servfail = await t.json('/api/dns/dnssec/www.ed448.test')
    expect(servfail.status).toBe(200)
    expect(servfail.body.data).toMatchObject({ status: 'indeterminate', reason: 'resolver_failure' })
    tree.server.setFault({ kind: 'drop', name: 'ed25519.test' })
    const dead = await t.json('/api/dns/dnssec/mail.ed25519.test')
    expect(dead.status).toBe(502)
    expect(dead.body.error).toMatchObject({ code: 'upstream_error', details: { upstream: 'dns', reason: 'timeout' } })
  })

  it('rejects names that are not domain names', async () => {
    const res = await t.json('/api/dns/dnssec/192.0.2.1')
    expect(res.status).toBe(400)
  })
})

describe('INFRALENS_TRUST_ANCHORS', () => {
  it('a file that cannot be used stops start-up', async () => {
    await expect(startTestApp({ ...tree.env, INFRALENS_TRUST_ANCHORS: '/nonexistent/anchors.ds' })).rejects.toThrow(/INFRALENS_TRUST_ANCHORS/)
  })
})
