import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { DnsAnswer, DnskeyRecord, DnsRecord } from '../../runtime/net/dns/dns-records.ts'
import type { DnsTypeMnemonic } from '../../runtime/net/dns/dns-types.ts'
import { signedData, wireOrThrow } from '../../plugins/dnssec/canonical.ts'
import type { DnssecFetcher } from '../../plugins/dnssec/dnssec-fetcher.ts'
import { nameOf } from '../../plugins/dnssec/names.ts'
import { presentValidation } from '../../plugins/dnssec/present.ts'
import { parseTrustAnchors } from '../../plugins/dnssec/trust-anchors.ts'
import { createValidator } from '../../plugins/dnssec/validator.ts'
import { decodedRecords } from '../support/dnssec-records.ts'

// Which DS digests validate a child's key (RFC 4509 §3): a SHA-1 DS counts only when
// the parent publishes no stronger one, so a failing SHA-256 DS cannot be rescued by a
// matching SHA-1 DS (a downgrade an attacker could force by stripping records).
// BIND's signer has no switch for a wrong digest beside a right one, so this small
// tree is signed here with Ed25519 (node's crypto); the DS digests are computed
// independently of the validator's own ds-digest.ts.

const NOW = () => Date.parse('2026-06-01T00:00:00Z')
const SIGNATURE_WINDOW = '20450101000000 20250101000000'

interface Zone {
  name: string
  key: KeyObject
  dnskey: DnskeyRecord
}

function newZone(name: string): Zone {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url').toString('base64')
  const dnskey = decodedRecords(`${name}. 3600 IN DNSKEY 257 3 15 ${raw}`)[0] as DnskeyRecord
  return { name, key: privateKey, dnskey }
}

/** The RRSIG the zone's key makes over the RRset (owner labels as RFC 4034 §3.1.3 counts them). */
function signed(zone: Zone, owner: string, type: string, rrset: DnsRecord[]): DnsRecord[] {
  const labels = owner.split('.').length
  const rrsig = (signature: string) =>
    `${owner}. 3600 IN RRSIG ${type} 15 ${labels} 3600 ${SIGNATURE_WINDOW} ${zone.dnskey.data.keyTag} ${zone.name}. ${signature}`
  const draft = decodedRecords(rrsig('AAAA'))[0] as DnsRecord
  const data = signedData(wireOrThrow(draft).rdata, nameOf(owner), rrset)
  return [...rrset, ...decodedRecords(rrsig(sign(null, data, zone.key).toString('base64')))]
}

/** RFC 4034 §5.1.4: digest over the owner's wire name and the DNSKEY RDATA. */
function dsText(child: Zone, digestType: 1 | 2, tamper = false): string {
  const ownerWire = Buffer.concat([...child.name.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0])])
  let digest = createHash(digestType === 1 ? 'sha1' : 'sha256').update(ownerWire).update(wireOrThrow(child.dnskey).rdata).digest('hex')
  if (tamper) digest = (digest[0] === '0' ? '1' : '0') + digest.slice(1)
  return `${child.name}. 3600 IN DS ${child.dnskey.data.keyTag} 15 ${digestType} ${digest}`
}

function answer(name: string, type: DnsTypeMnemonic, answers: DnsRecord[]): DnsAnswer {
  return {
    question: { name, type, class: 'IN' },
    rcode: 'NOERROR',
    flags: { aa: false, tc: false, rd: true, ra: true, ad: false, cd: true },
    answers,
    authorities: [],
    additionals: [],
    edns: null,
    server: { host: '127.0.0.1', port: 53, name: 'in-memory' },
    transport: 'udp',
    latencyMs: 0,
  }
}

/** `example.` (the trust anchor) delegating `child.example.` with the given DS set; the child's apex A record. */
function treeWithDs(ds: (child: Zone) => string[]) {
  const parent = newZone('example')
  const child = newZone('child.example')
  const answers = new Map<string, DnsAnswer>()
  const put = (name: string, type: DnsTypeMnemonic, records: DnsRecord[]) => answers.set(`${name}/${type}`, answer(name, type, records))
  put('example', 'DNSKEY', signed(parent, 'example', 'DNSKEY', [parent.dnskey]))
  put('child.example', 'DS', signed(parent, 'child.example', 'DS', decodedRecords(ds(child).join('\n'))))
  put('child.example', 'DNSKEY', signed(child, 'child.example', 'DNSKEY', [child.dnskey]))
  put('child.example', 'A', signed(child, 'child.example', 'A', decodedRecords('child.example. 3600 IN A 192.0.2.7')))
  const fetcher: DnssecFetcher = {
    fetch: async (name, type) => {
      const found = answers.get(`${name.text}/${type}`)
      if (!found) throw new Error(`the test tree has no answer for ${name.text} ${type}`)
      return found
    },
    clear: () => {},
  }
  const anchors = { anchors: parseTrustAnchors(`example. IN DNSKEY 257 3 15 ${parent.dnskey.data.key}`), source: 'test' }
  return createValidator({ fetcher, anchors, now: NOW })
}

async function validate(ds: (child: Zone) => string[]) {
  return presentValidation(await treeWithDs(ds).validate('child.example'), 'child.example')
}

describe('DS digest types (RFC 4509 §3)', () => {
  it('only a SHA-1 DS: it is used, the chain is secure and the weak digest is reported', async () => {
    const data = await validate((child) => [dsText(child, 1)])
    expect(data.status, data.message).toBe('secure')
    expect(data.answer.records.map((r) => r.address)).toEqual(['192.0.2.7'])
    const child = data.chain.find((z) => z.zone === 'child.example')!
    expect(child.ds.map((d) => [d.digest_type, d.matches_key])).toEqual([[1, true]])
    expect(child.dnskeys.map((k) => k.entry_point)).toEqual([true])
    expect(data.findings).toEqual([expect.objectContaining({ code: 'ds_digest_sha1', zone: 'child.example', severity: 'warning' })])
  })

  it('a failing SHA-256 DS beside a matching SHA-1 DS: bogus, the SHA-1 one is ignored', async () => {
    const data = await validate((child) => [dsText(child, 1), dsText(child, 2, true)])
    expect(data).toMatchObject({ status: 'bogus', reason: 'ds_dnskey_mismatch', bogus_at: 'child.example' })
    // the message names only the digest that was tried
    expect(data.message).toMatch(/\/SHA-256\)$/)
    expect(data.message).not.toMatch(/SHA-1/)
    expect(data.chain.find((z) => z.zone === 'child.example')!.ds.map((d) => [d.digest_type, d.matches_key])).toEqual([
      [1, true],
      [2, false],
    ])
  })

  it('a failing SHA-1 DS beside a matching SHA-256 DS: secure', async () => {
    const data = await validate((child) => [dsText(child, 1, true), dsText(child, 2)])
    expect(data.status, data.message).toBe('secure')
  })
})
