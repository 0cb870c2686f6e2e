import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDnsClient } from '../../runtime/net/dns/dns-client.ts'
import { DnsError } from '../../runtime/net/dns/dns-error.ts'
import { createFetcher } from '../../plugins/dnssec/dnssec-fetcher.ts'
import { DnssecData } from '../../registry/dns/schemas/dnssec-data.ts'
import { presentValidation } from '../../plugins/dnssec/present.ts'
import { loadTrustAnchors, parseTrustAnchors, type TrustAnchors } from '../../plugins/dnssec/trust-anchors.ts'
import { createValidator, type Validator } from '../../plugins/dnssec/validator.ts'
import { DNSSEC_FIXTURES, EXPECTED, ROOT_ANCHOR_DNSKEY, ROOT_ANCHOR_DS, startSignedTree, type SignedTree } from '../support/dnssec-fixtures.ts'

// The validator against the signed test tree (BIND-signed fixtures) served by the
// loopback DNS server, which answers like a recursive resolver for all of it.

let tree: SignedTree
let validator: Validator
let rootAnchor: TrustAnchors

// The fixtures are signed for 2025-01-01..2045-01-01 (future.test from 2040): the
// validators here judge them at a fixed instant, so the verdicts do not change with
// the year the tests run in.
const NOW = () => Date.parse('2026-06-01T00:00:00Z')
const client = (timeoutMs = 1000) => createDnsClient({ servers: [{ host: tree.server.host, port: tree.server.port }], timeoutMs, retries: 0 })
const validatorWith = (anchors: TrustAnchors, now: () => number = NOW) => createValidator({ fetcher: createFetcher(client()), anchors, now })

beforeAll(async () => {
  tree = await startSignedTree()
  rootAnchor = loadTrustAnchors(ROOT_ANCHOR_DS)
  validator = validatorWith(rootAnchor)
})
afterAll(async () => {
  await tree.close()
})
beforeEach(() => tree.server.setFault(null))

describe('every test domain gets the verdict RFC 4035 gives it', () => {
  for (const expected of EXPECTED) {
    it(`${expected.domain}: ${expected.status}${expected.reason ? ` (${expected.reason})` : ''}`, async () => {
      const result = await validator.validate(expected.domain)
      const outcome = result.outcome
      expect(outcome.status, 'message' in outcome ? outcome.message : '').toBe(expected.status)
      if (expected.reason) expect('reason' in outcome && outcome.reason).toBe(expected.reason)
      if (expected.at) expect('at' in outcome && outcome.at).toBe(expected.at)
      if (expected.answer) expect(result.answer.kind).toBe(expected.answer)
      // the API data for it is what the descriptor documents
      const data = presentValidation(result, expected.domain)
      expect(DnssecData.safeParse(data).success).toBe(true)
      expect(data.validated_at).toBe('2026-06-01T00:00:00.000Z')
      if (expected.status === 'insecure') expect(data.insecure_at).toBe(expected.at)
      if (expected.reason !== 'opt_out') expect(data.opt_out_name).toBeNull()
      if (expected.status === 'bogus') expect(data.bogus_at).toBe(expected.at)
    })
  }
})

describe('what the chain shows', () => {
  it('a secure 3-level chain: anchor, DS per delegation, the entry keys, the answer signature', async () => {
    const data = presentValidation(await validator.validate('www.ecdsap384.test'), 'www.ecdsap384.test')
    expect(data.chain.map((z) => [z.zone, z.status, z.trust])).toEqual([
      ['.', 'secure', 'trust_anchor'],
      ['test', 'secure', 'ds'],
      ['ecdsap384.test', 'secure', 'ds'],
    ])
    const leaf = data.chain[2]!
    expect(leaf.ds).toEqual([expect.objectContaining({ algorithm: 14, digest_type: 4, digest_type_name: 'SHA-384', supported: true, matches_key: true })])
    expect(leaf.dnskeys.map((k) => [k.role, k.key_size, k.algorithm_name])).toEqual(
      expect.arrayContaining([
        ['ksk', 384, 'ECDSAP384SHA384'],
        ['zsk', 384, 'ECDSAP384SHA384'],
      ]),
    )
    expect(leaf.dnskeys.find((k) => k.role === 'ksk')!.entry_point).toBe(true)
    expect(leaf.rrsigs.filter((s) => s.status === 'valid').map((s) => s.type_covered)).toEqual(['DS', 'DNSKEY'])
    expect(data.answer.rrsigs).toEqual([expect.objectContaining({ signer: 'ecdsap384.test', status: 'valid', expiration: '2045-01-01T00:00:00.000Z' })])
    expect(data.answer.records).toEqual([{ name: 'www.ecdsap384.test', type: 'A', ttl: 3600, address: '192.0.2.10' }])
    expect(data.trust_anchors.anchors).toEqual([expect.objectContaining({ zone: '.', type: 'DS', algorithm: 8 })])
  })

  it('findings: SHA-1 DS beside SHA-256, a 1024-bit RSA ZSK', async () => {
    const data = presentValidation(await validator.validate('www.rsasha256.test'), 'www.rsasha256.test')
    expect(data.status).toBe('secure')
    expect(data.findings.map((f) => [f.code, f.zone, f.severity])).toEqual([
      ['ds_digest_sha1', 'rsasha256.test', 'warning'],
      ['rsa_key_small', 'rsasha256.test', 'warning'],
    ])
    // both DS records match the KSK here; that the SHA-1 one is ignored beside a SHA-256 one
    // (RFC 4509 §3) is shown in ds-digest-choice.test.ts, where they disagree
    expect(data.chain[2]!.ds.map((d) => [d.digest_type, d.matches_key])).toEqual([
      [1, true],
      [2, true],
    ])
  })

  it('an insecure delegation shows the signed proof that there is no DS (NSEC, NSEC3, opt-out)', async () => {
    for (const [domain, type, proves, optOut] of [
      ['www.unsigned.test', 'nsec', 'no_ds', false],
      ['www.unsigned.nsec3.test', 'nsec3', 'no_ds', false],
      ['www.unsigned.optout.test', 'nsec3', 'no_ds', true],
    ] as const) {
      const data = presentValidation(await validator.validate(domain), domain)
      const last = data.chain.at(-1)!
      expect(last.status).toBe('insecure')
      expect(last.denial).toMatchObject({ type, proves, opt_out: optOut })
      expect(last.denial!.rrsigs.every((s) => s.status === 'valid')).toBe(true)
      // the answer is shown, but nothing vouches for it
      expect(data.answer.records.map((r) => r.address)).toEqual(['192.0.2.40'])
      expect(data.answer.rrsigs).toEqual([])
    }
  })

  it('opt-out: insecure_at is the zone that signed the span, opt_out_name the name inside it', async () => {
    // The span's name need not exist (does-not-exist) or be provably a zone (unsigned):
    // either way the chain provably ends at optout.test, as for a name the answer's own proof covers.
    for (const [domain, spanName] of [
      ['does-not-exist.optout.test', 'does-not-exist.optout.test'],
      ['www.unsigned.optout.test', 'unsigned.optout.test'],
    ] as const) {
      const data = presentValidation(await validator.validate(domain), domain)
      expect(data).toMatchObject({ status: 'insecure', reason: 'opt_out', insecure_at: 'optout.test', opt_out_name: spanName })
      expect(data.message).toContain(`the chain of trust ends at optout.test`)
      expect(data.chain.find((z) => z.zone === 'optout.test')).toMatchObject({ status: 'secure', trust: 'ds' })
    }
    // a proven unsigned delegation: the child zone itself, no span
    const cut = presentValidation(await validator.validate('www.unsigned.nsec3.test'), 'www.unsigned.nsec3.test')
    expect(cut).toMatchObject({ insecure_at: 'unsigned.nsec3.test', opt_out_name: null })
  })

  it('NXDOMAIN, NODATA and wildcard answers carry their denial', async () => {
    const nx = presentValidation(await validator.validate('does-not-exist.nsec3.test'), 'does-not-exist.nsec3.test')
    expect(nx.answer).toMatchObject({ status: 'nxdomain', denial: { type: 'nsec3', proves: 'nxdomain', opt_out: false } })
    expect(nx.answer.denial!.records).toHaveLength(3)
    const wild = presentValidation(await validator.validate('anything.wild.ed25519.test'), 'anything.wild.ed25519.test')
    expect(wild.answer).toMatchObject({ status: 'answer', wildcard: '*.wild.ed25519.test', denial: { type: 'nsec', proves: 'no_exact_match' } })
    const ent = presentValidation(await validator.validate('ent.ecdsap256.test'), 'ent.ecdsap256.test')
    expect(ent.answer).toMatchObject({ status: 'nodata', denial: { type: 'nsec', proves: 'empty_non_terminal' } })
  })

  it('CNAME chains: each link validated in its own zone', async () => {
    const data = presentValidation(await validator.validate('cross.rsasha256.test'), 'cross.rsasha256.test')
    expect(data.answer.name).toBe('www.ed25519.test')
    expect(data.answer.cname_chain).toEqual([{ name: 'cross.rsasha256.test', target: 'www.ed25519.test', ttl: 3600, status: 'secure' }])
    expect(data.chain.map((z) => z.zone)).toEqual(['.', 'test', 'rsasha256.test', 'ed25519.test'])
    const bad = presentValidation(await validator.validate('to-bogus.ecdsap256.test'), 'to-bogus.ecdsap256.test')
    expect(bad.answer.cname_chain[0]).toMatchObject({ status: 'secure' })
    expect(bad).toMatchObject({ status: 'bogus', bogus_at: 'bad-sig.test', reason: 'bad_signature' })
  })

  it('other types than A can be validated (the validator takes a type)', async () => {
    const result = await validator.validate('txt-only.ecdsap256.test', { type: 'TXT' })
    expect(result.outcome.status).toBe('secure')
    expect(result.answer.kind).toBe('answer')
  })
})

describe('the clock', () => {
  const at = (iso: string) => () => Date.parse(iso)

  it('signatures expiring within 7 days are reported', async () => {
    const data = presentValidation(await validator.validate('www.ecdsap256.test', { now: at('2044-12-29T00:00:00Z') }), 'www.ecdsap256.test')
    expect(data.status).toBe('secure')
    const expiring = data.findings.filter((f) => f.code === 'signature_expiring')
    expect(expiring.map((f) => f.zone)).toEqual(expect.arrayContaining(['.', 'test', 'ecdsap256.test']))
    expect(expiring[0]!.message).toMatch(/expires in 3 days/)
    expect(data.validated_at).toBe('2044-12-29T00:00:00.000Z')
  })

  it('after 2045 the whole tree has expired; before 2025 it is not yet valid; both at the root', async () => {
    expect((await validator.validate('www.ecdsap256.test', { now: at('2046-01-01T00:00:00Z') })).outcome).toMatchObject({ status: 'bogus', reason: 'expired', at: '.' })
    expect((await validator.validate('www.ecdsap256.test', { now: at('2024-06-01T00:00:00Z') })).outcome).toMatchObject({ status: 'bogus', reason: 'not_yet_valid', at: '.' })
  })

  it('future.test becomes valid in 2040; the clock is set per validator too', async () => {
    const in2041 = validatorWith(rootAnchor, at('2041-01-01T00:00:00Z'))
    expect((await in2041.validate('www.future.test')).outcome.status).toBe('secure')
    expect((await in2041.validate('www.expired.test')).outcome).toMatchObject({ status: 'bogus', reason: 'expired' })
  })
})

describe('trust anchors', () => {
  it('a DNSKEY anchor works like the DS one', async () => {
    const v = validatorWith(loadTrustAnchors(ROOT_ANCHOR_DNSKEY))
    expect((await v.validate('www.ed448.test')).outcome.status).toBe('secure')
  })

  it('the deepest anchor above the name is where the chain starts', async () => {
    const testDs = readFileSync(join(DNSSEC_FIXTURES, 'root.zone'), 'utf8')
      .split('\n')
      .find((l) => /^test\.\s.*\sDS\s/.test(l))!
    const v = validatorWith({ anchors: [...rootAnchor.anchors, ...parseTrustAnchors(testDs.replace(/\s+/g, ' '))], source: 'test' })
    const result = await v.validate('www.ed25519.test')
    expect(result.outcome.status).toBe('secure')
    expect(result.links.map((l) => [l.zone.text, l.trust])).toEqual([
      ['test', 'trust_anchor'],
      ['ed25519.test', 'ds'],
    ])
  })

  it('an anchor no key matches makes everything under it bogus', async () => {
    const v = validatorWith({ anchors: parseTrustAnchors(`. IN DS ${rootAnchor.anchors[0]!.type === 'DS' ? rootAnchor.anchors[0]!.ds.keyTag : 0} 8 2 ${'ab'.repeat(32)}`), source: 'test' })
    expect((await v.validate('www.ecdsap256.test')).outcome).toMatchObject({ status: 'bogus', reason: 'ds_dnskey_mismatch', at: '.' })
  })

  it('no anchor above the name, or only anchors of unimplemented algorithms: indeterminate', async () => {
    const elsewhere = validatorWith({ anchors: parseTrustAnchors(`example. IN DS 1 8 2 ${'ab'.repeat(32)}`), source: 'test' })
    expect((await elsewhere.validate('www.ecdsap256.test')).outcome).toMatchObject({ status: 'indeterminate', reason: 'no_trust_anchor' })
    const sha1Rsa = validatorWith({ anchors: parseTrustAnchors(`. IN DS 1 5 1 ${'ab'.repeat(20)}`), source: 'test' })
    expect((await sha1Rsa.validate('www.ecdsap256.test')).outcome).toMatchObject({ status: 'indeterminate', reason: 'unsupported_trust_anchor' })
  })
})

describe('the resolver', () => {
  it('answers are reused for their TTL: a warm chain asks nothing, a sibling only its own questions', async () => {
    const v = validatorWith(rootAnchor)
    await v.validate('www.ed25519.test')
    const before = tree.server.log.length
    await v.validate('www.ed25519.test')
    expect(tree.server.log.length).toBe(before)
    await v.validate('alias.ed25519.test')
    const asked = tree.server.log.slice(before).map((q) => `${q.name} ${q.type}`)
    // the CNAME's target (www) and every zone above were asked for a moment ago
    expect(asked.sort()).toEqual(['alias.ed25519.test A', 'alias.ed25519.test DS'])
  })

  it('every question carries DO and CD', async () => {
    const before = tree.server.log.length
    await validatorWith(rootAnchor).validate('www.ecdsap256.test')
    const asked = tree.server.log.slice(before)
    expect(asked.length).toBeGreaterThanOrEqual(6)
    for (const q of asked) expect(q).toMatchObject({ dnssecOk: true, cd: true, rd: true })
  })

  it('SERVFAIL for a link of the chain leaves the verdict indeterminate', async () => {
    tree.server.setFault({ kind: 'servfail', name: 'ecdsap256.test' })
    const result = await validatorWith(rootAnchor).validate('www.ecdsap256.test')
    expect(result.outcome).toMatchObject({ status: 'indeterminate', reason: 'resolver_failure', at: 'ecdsap256.test' })
  })

  it('a resolver that does not answer is an error, not a verdict', async () => {
    tree.server.setFault({ kind: 'drop', name: 'ecdsap384.test' })
    const v = createValidator({ fetcher: createFetcher(client(200)), anchors: rootAnchor, now: NOW })
    await expect(v.validate('www.ecdsap384.test')).rejects.toBeInstanceOf(DnsError)
  })
})
