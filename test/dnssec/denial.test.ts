import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nameOf } from '../../plugins/dnssec/names.ts'
import { closestEncloser, coveringNsec, nsecViews, proveNoExactMatch, proveNodata, proveNxdomain } from '../../plugins/dnssec/nsec.ts'
import { Nsec3Set, nsec3Hash, nsec3Views, proveNodata3, proveNoExactMatch3, proveNxdomain3 } from '../../plugins/dnssec/nsec3.ts'
import { DNSSEC_FIXTURES } from '../support/dnssec-fixtures.ts'
import { decodedRecords } from '../support/dnssec-records.ts'

// Denial-of-existence logic on its own (signatures are checked elsewhere): NSEC
// records written here, NSEC3 records from the RFC 5155 Appendix A zone as BIND
// signed it (salt aabbccdd, 12 iterations, every NSEC3 opt-out).

describe('NSEC3 hashes (RFC 5155 Appendix A; the same values BIND\'s nsec3hash prints)', () => {
  const hashes: Record<string, string> = {
    example: '0p9mhaveqvm6t7vbl5lop2u3t2rp3tom',
    'a.example': '35mthgpgcu1qg68fab165klnsnk3dpvl',
    'ai.example': 'gjeqe526plbf1g8mklp59enfd789njgi',
    'ns1.example': '2t7b4g4vsa5smi47k61mv5bv1a22bojr',
    'ns2.example': 'q04jkcevqvmu85r014c7dkba38o0ji5r',
    'w.example': 'k8udemvp1j2f7eg6jebps17vp3n8i58h',
    '*.w.example': 'r53bq7cc2uvmubfu5ocmm6pers9tk9en',
    'x.w.example': 'b4um86eghhds6nea196smvmlo4ors995',
    'y.w.example': 'ji6neoaepv8b5o6k4ev33abha8ht9fgc',
    'x.y.w.example': '2vptu5timamqttgl4luu9kg21e0aor3s',
    'xx.example': 't644ebqk9bibcna874givr6joj62mlhv',
  }
  for (const [name, hash] of Object.entries(hashes)) {
    it(`H(${name})`, () => {
      const digest = nsec3Hash(nameOf(name.toUpperCase()), 'aabbccdd', 12)
      expect(toBase32Hex(digest)).toBe(hash)
    })
  }
})

function toBase32Hex(bytes: Buffer): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuv'
  let bits = ''
  for (const b of bytes) bits += b.toString(2).padStart(8, '0')
  let out = ''
  for (let i = 0; i < bits.length; i += 5) out += alphabet[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)]
  return out
}

describe('NSEC proofs (RFC 4035 §5.4)', () => {
  // example. has: example, a.example (delegation), b.example, x.ent.example, *.w.example
  const nsecs = nsecViews(
    decodedRecords(`
example.         IN NSEC a.example. NS SOA RRSIG NSEC DNSKEY
a.example.       IN NSEC b.example. NS RRSIG NSEC
b.example.       IN NSEC x.ent.example. A RRSIG NSEC
x.ent.example.   IN NSEC *.w.example. A RRSIG NSEC
*.w.example.     IN NSEC example. MX RRSIG NSEC`),
  )

  it('NODATA: a matching NSEC without the type', () => {
    expect(proveNodata(nsecs, nameOf('b.example'), 'AAAA')).toMatchObject({ ok: true, kind: 'nodata' })
    expect(proveNodata(nsecs, nameOf('b.example'), 'A')).toMatchObject({ ok: false })
  })

  it('NODATA at an empty non-terminal, and for a wildcard', () => {
    expect(proveNodata(nsecs, nameOf('ent.example'), 'A')).toMatchObject({ ok: true, kind: 'empty_non_terminal' })
    expect(proveNodata(nsecs, nameOf('q.w.example'), 'A')).toMatchObject({ ok: true, kind: 'wildcard_nodata' })
    expect(proveNodata(nsecs, nameOf('q.w.example'), 'MX')).toMatchObject({ ok: false })
  })

  it('NXDOMAIN: the name and the wildcard at its closest encloser are covered', () => {
    expect(proveNxdomain(nsecs, nameOf('c.example'))).toMatchObject({ ok: true, kind: 'nxdomain' })
    expect(closestEncloser(coveringNsec(nsecs, nameOf('q.x.ent.example'))!, nameOf('q.x.ent.example')).text).toBe('x.ent.example')
    // an empty non-terminal exists: NXDOMAIN cannot be proven for it
    expect(proveNxdomain(nsecs, nameOf('ent.example'))).toMatchObject({ ok: false })
  })

  it('the last NSEC wraps around to the apex', () => {
    expect(coveringNsec(nsecs, nameOf('zz.example'))?.owner.text).toBe('*.w.example')
  })

  it('an NSEC at a delegation cannot deny names below it (RFC 6840 §4.1)', () => {
    expect(coveringNsec(nsecs, nameOf('www.a.example'))).toBeUndefined()
    expect(proveNxdomain(nsecs, nameOf('www.a.example'))).toMatchObject({ ok: false })
    // ... nor anything but DS at the delegation itself
    expect(proveNodata(nsecs, nameOf('a.example'), 'A')).toMatchObject({ ok: false })
    expect(proveNodata(nsecs, nameOf('a.example'), 'DS')).toMatchObject({ ok: true })
  })

  it('a wildcard expansion needs the exact name covered, with the wildcard\'s parent as closest encloser', () => {
    expect(proveNoExactMatch(nsecs, nameOf('q.w.example'), nameOf('w.example'))).toMatchObject({ ok: true })
    expect(proveNoExactMatch(nsecs, nameOf('q.w.example'), nameOf('example'))).toMatchObject({ ok: false })
  })
})

describe('NSEC3 proofs on the RFC 5155 example zone (all NSEC3 opt-out)', () => {
  const records = decodedRecords(readFileSync(join(DNSSEC_FIXTURES, 'example.rfc5155.signed.zone'), 'utf8'))
  const set = new Nsec3Set(nsec3Views(records), nameOf('example'))

  it('reads the chain', () => {
    expect(set.views.length).toBeGreaterThan(5)
    expect(set.iterations).toBe(12)
    expect(set.matching(nameOf('ns1.example'))?.owner.text).toBe('2t7b4g4vsa5smi47k61mv5bv1a22bojr.example')
  })

  it('B.1 name error: closest encloser x.w.example, next closer c.x.w.example, no wildcard', () => {
    const proof = set.closestEncloser(nameOf('a.c.x.w.example'))
    expect(typeof proof).toBe('object')
    if (typeof proof === 'string') return
    expect(proof.closest.text).toBe('x.w.example')
    expect(proof.nextCloser.text).toBe('c.x.w.example')
    const nx = proveNxdomain3(set, nameOf('a.c.x.w.example'))
    expect(nx).toMatchObject({ ok: true, kind: 'nxdomain', optOut: true })
  })

  it('B.2 / B.2.1 no data, also at the empty non-terminal y.w.example', () => {
    expect(proveNodata3(set, nameOf('ns1.example'), 'MX')).toMatchObject({ ok: true, kind: 'nodata', optOut: false })
    expect(proveNodata3(set, nameOf('y.w.example'), 'A')).toMatchObject({ ok: true, kind: 'nodata' })
    expect(proveNodata3(set, nameOf('ns1.example'), 'A')).toMatchObject({ ok: false })
  })

  it('B.3 no DS at the unsigned delegation c.example: an opt-out span covers it', () => {
    expect(set.matching(nameOf('c.example'))).toBeUndefined()
    expect(proveNodata3(set, nameOf('c.example'), 'DS')).toMatchObject({ ok: true, kind: 'no_ds', optOut: true })
  })

  it('B.4 wildcard expansion: the next closer name z.w.example is covered', () => {
    expect(proveNoExactMatch3(set, nameOf('a.z.w.example'), nameOf('w.example'))).toMatchObject({ ok: true, optOut: true })
  })

  it('the delegation a.example cannot be a closest encloser', () => {
    expect(set.closestEncloser(nameOf('www.a.example'))).toMatch(/delegation/)
  })
})
