import { describe, expect, it } from 'vitest'
import type { DnskeyRecord, RrsigRecord } from '../../runtime/net/dns/dns-records.ts'
import { dsDigest, dsMatchesKey } from '../../plugins/dnssec/ds-digest.ts'
import { nameOf } from '../../plugins/dnssec/names.ts'
import { importDnskey, keySizeOf } from '../../plugins/dnssec/public-key.ts'
import { checkRRset, timeStatus } from '../../plugins/dnssec/rrsig-check.ts'
import { wireOrThrow } from '../../plugins/dnssec/canonical.ts'
import { decodedRecords } from '../support/dnssec-records.ts'

// The example signed records of RFC 5702 §6 (RSA/SHA-256 and RSA/SHA-512), RFC 6605
// §6 (ECDSA P-256 and P-384) and RFC 8080 §6 (Ed25519, Ed448), with their key tags
// and DS digests, and the DS examples of RFC 4034 §5.4 and RFC 4509 §2.3. A vector
// that verifies under the RFC's public key is self-authenticating: nothing else
// could have produced the signature.

interface Vector {
  rfc: string
  zone: string
  owner: string
  type: string
  /** An instant inside the signature's validity window (the RFCs' signatures are from 2010-2015). */
  now: number
  tag: number
  ds?: { digestType: number; digest: string }
  keySize: number
  text: string
}

const VECTORS: Vector[] = [
  {
    rfc: 'RFC 5702 §6.1 RSASHA256 (8)',
    zone: 'example.net',
    owner: 'www.example.net',
    type: 'A',
    now: 1_600_000_000,
    tag: 9033,
    keySize: 512,
    text: `
example.net.     3600 IN DNSKEY 256 3 8 AwEAAcFcGsaxxdgiuuGmCkVImy4h99CqT7jwY3pexPGcnUFtR2Fh36BponcwtkZ4cAgtvd4Qs8PkxUdp6p/DlUmObdk=
www.example.net. 3600 IN A 192.0.2.91
www.example.net. 3600 IN RRSIG A 8 3 3600 20300101000000 20000101000000 9033 example.net. kRCOH6u7l0QGy9qpC9l1sLncJcOKFLJ7GhiUOibu4teYp5VE9RncriShZNz85mwlMgNEacFYK/lPtPiVYP4bwg==`,
  },
  {
    rfc: 'RFC 5702 §6.2 RSASHA512 (10)',
    zone: 'example.net',
    owner: 'www.example.net',
    type: 'A',
    now: 1_600_000_000,
    tag: 3740,
    keySize: 1024,
    text: `
example.net.     3600 IN DNSKEY 256 3 10 AwEAAdHoNTOW+et86KuJOWRDp1pndvwb6Y83nSVXXyLA3DLroROUkN6X0O6pnWnjJQujX/AyhqFDxj13tOnD9u/1kTg7cV6rklMrZDtJCQ5PCl/D7QNPsgVsMu1J2Q8gpMpztNFLpPBz1bWXjDtaR7ZQBlZ3PFY12ZTSncorffcGmhOL
www.example.net. 3600 IN A 192.0.2.91
www.example.net. 3600 IN RRSIG A 10 3 3600 20300101000000 20000101000000 3740 example.net. tsb4wnjRUDnB1BUi+t6TMTXThjVnG+eCkWqjvvjhzQL1d0YRoOe0CbxrVDYd0xDtsuJRaeUw1ep94PzEWzr0iGYgZBWm/zpq+9fOuagYJRfDqfReKBzMweOLDiNa8iP5g9vMhpuv6OPlvpXwm9Sa9ZXIbNl1MBGk0fthPgxdDLw=`,
  },
  {
    rfc: 'RFC 6605 §6.1 ECDSAP256SHA256 (13)',
    zone: 'example.net',
    owner: 'www.example.net',
    type: 'A',
    now: 1_283_000_000,
    tag: 55648,
    keySize: 256,
    ds: { digestType: 2, digest: 'b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17' },
    text: `
example.net.     3600 IN DNSKEY 257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==
www.example.net. 3600 IN A 192.0.2.1
www.example.net. 3600 IN RRSIG A 13 3 3600 20100909100439 20100812100439 55648 example.net. qx6wLYqmh+l9oCKTN6qIc+bw6ya+KJ8oMz0YP107epXAyGmt+3SNruPFKG7tZoLBLlUzGGus7ZwmwWep666VCw==`,
  },
  {
    rfc: 'RFC 6605 §6.2 ECDSAP384SHA384 (14)',
    zone: 'example.net',
    owner: 'www.example.net',
    type: 'A',
    now: 1_283_000_000,
    tag: 10771,
    keySize: 384,
    ds: { digestType: 4, digest: '72d7b62976ce06438e9c0bf319013cf801f09ecc84b8d7e9495f27e305c6a9b0563a9b5f4d288405c3008a946df983d6' },
    text: `
example.net.     3600 IN DNSKEY 257 3 14 xKYaNhWdGOfJ+nPrL8/arkwf2EY3MDJ+SErKivBVSum1w/egsXvSADtNJhyem5RCOpgQ6K8X1DRSEkrbYQ+OB+v8/uX45NBwY8rp65F6Glur8I/mlVNgF6W/qTI37m40
www.example.net. 3600 IN A 192.0.2.1
www.example.net. 3600 IN RRSIG A 14 3 3600 20100909102025 20100812102025 10771 example.net. /L5hDKIvGDyI1fcARX3z65qrmPsVz73QD1Mr5CEqOiLP95hxQouuroGCeZOvzFaxsT8Glr74hbavRKayJNuydCuzWTSSPdz7wnqXL5bdcJzusdnI0RSMROxxwGipWcJm`,
  },
  {
    // The RFC's RRSIG text drops the algorithm and labels fields; with them restored
    // (15, 2) its signature verifies.
    rfc: 'RFC 8080 §6.1 ED25519 (15)',
    zone: 'example.com',
    owner: 'example.com',
    type: 'MX',
    now: 1_439_000_000,
    tag: 3613,
    keySize: 256,
    ds: { digestType: 2, digest: '3aa5ab37efce57f737fc1627013fee07bdf241bd10f3b1964ab55c78e79a304b' },
    text: `
example.com. 3600 IN DNSKEY 257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=
example.com. 3600 IN MX 10 mail.example.com.
example.com. 3600 IN RRSIG MX 15 2 3600 1440021600 1438207200 3613 example.com. oL9krJun7xfBOIWcGHi7mag5/hdZrKWw15jPGrHpjQeRAvTdszaPD+QLs3fx8A4M3e23mRZ9VrbpMngwcrqNAg==`,
  },
  {
    rfc: 'RFC 8080 §6.1 ED25519 (15), second key',
    zone: 'example.com',
    owner: 'example.com',
    type: 'MX',
    now: 1_439_000_000,
    tag: 35217,
    keySize: 256,
    ds: { digestType: 2, digest: '401781b934e392de492ec77ae2e15d70f6575a1c0bc59c5275c04ebe80c6614c' },
    text: `
example.com. 3600 IN DNSKEY 257 3 15 zPnZ/QwEe7S8C5SPz2OfS5RR40ATk2/rYnE9xHIEijs=
example.com. 3600 IN MX 10 mail.example.com.
example.com. 3600 IN RRSIG MX 15 2 3600 1440021600 1438207200 35217 example.com. zXQ0bkYgQTEFyfLyi9QoiY6D8ZdYo4wyUhVioYZXFdT410QPRITQSqJSnzQoSm5poJ7gD7AQR0O7KuI5k2pcBg==`,
  },
  {
    // Ed448 signatures are deterministic (RFC 8032): this is the RFC's example
    // signature, the one its private key gives over its MX RRset.
    rfc: 'RFC 8080 §6.2 ED448 (16)',
    zone: 'example.com',
    owner: 'example.com',
    type: 'MX',
    now: 1_439_000_000,
    tag: 9713,
    keySize: 456,
    ds: { digestType: 2, digest: '6ccf18d5bc5d7fc2fceb1d59d17321402f2aa8d368048db93dd811f5cb2b19c7' },
    text: `
example.com. 3600 IN DNSKEY 257 3 16 3kgROaDjrh0H2iuixWBrc8g2EpBBLCdGzHmn+G2MpTPhpj/OiBVHHSfPodx1FYYUcJKm1MDpJtIA
example.com. 3600 IN MX 10 mail.example.com.
example.com. 3600 IN RRSIG MX 16 2 3600 1440021600 1438207200 9713 example.com. 3cPAHkmlnxcDHMyg7vFC34l0blBhuG1qpwLmjInI8w1CMB29FkEAIJUA0amxWndkmnBZ6SKiwZSAxGILn/NBtOXft0+Gj7FSvOKxE/07+4RQvE581N3Aj/JtIyaiYVdnYtyMWbSNyGEY2213WKsJlwEA`,
  },
]

function parts(v: Vector) {
  const records = decodedRecords(v.text)
  return {
    key: records.find((r): r is DnskeyRecord => r.type === 'DNSKEY')!,
    rrset: records.filter((r) => r.type === v.type),
    rrsig: records.find((r): r is RrsigRecord => r.type === 'RRSIG')!,
  }
}

function check(v: Vector, overrides: Partial<Parameters<typeof checkRRset>[0]> = {}) {
  const { key, rrset, rrsig } = parts(v)
  return checkRRset({ owner: nameOf(v.owner), type: v.type, rrset, rrsigs: [rrsig], signer: nameOf(v.zone), keys: [key], now: v.now, ...overrides })
}

describe('RFC signature vectors, one per algorithm', () => {
  for (const v of VECTORS) {
    it(`${v.rfc}: key tag, key size, DS digest, signature`, () => {
      const { key } = parts(v)
      expect(key.data.keyTag).toBe(v.tag)
      expect(keySizeOf(key.data.algorithm, key.data.key)).toBe(v.keySize)
      if (v.ds) {
        expect(dsDigest(nameOf(v.zone), key.data, v.ds.digestType)).toBe(v.ds.digest)
        expect(dsMatchesKey(nameOf(v.zone), { keyTag: v.tag, algorithm: key.data.algorithm, ...v.ds }, key.data)).toBe(true)
      }
      const result = check(v)
      expect(result.message).toMatch(/is signed by/)
      expect(result.ok).toBe(true)
      expect(result.checks.map((c) => c.status)).toEqual(['valid'])
    })

    it(`${v.rfc}: a changed record, a flipped signature bit and the wrong clock fail`, () => {
      const { key, rrset, rrsig } = parts(v)
      // a different RRset under the same signature
      const other = decodedRecords(v.type === 'A' ? `${v.owner}. 3600 IN A 192.0.2.254` : `${v.owner}. 3600 IN MX 20 mail.example.com.`)
      expect(check(v, { rrset: other }).failure).toBe('bad_signature')
      // one bit of the signature
      const sig = Buffer.from(rrsig.data.signature, 'base64')
      sig[5] = (sig[5] as number) ^ 0x01
      const tampered = decodedRecords(v.text.replace(rrsig.data.signature, sig.toString('base64'))).find((r): r is RrsigRecord => r.type === 'RRSIG')!
      expect(checkRRset({ owner: nameOf(v.owner), type: v.type, rrset, rrsigs: [tampered], signer: nameOf(v.zone), keys: [key], now: v.now }).failure).toBe('bad_signature')
      // the validity window
      const rdata = wireOrThrow(rrsig).rdata
      expect(check(v, { now: rdata.readUInt32BE(8) + 1 }).failure).toBe('expired')
      expect(check(v, { now: rdata.readUInt32BE(12) - 1 }).failure).toBe('not_yet_valid')
      // another zone's name as signer, or no key with the tag
      expect(check(v, { signer: nameOf('example.org') }).failure).toBe('missing_rrsig')
      expect(check(v, { keys: [] }).failure).toBe('no_matching_key')
    })
  }

  it('owner names and names inside RDATA are compared in canonical (lowercase) form', () => {
    const v = VECTORS[4]!
    const shouted = { ...v, text: v.text.replace('example.com. 3600 IN MX 10 mail.example.com.', 'EXAMPLE.com. 3600 IN MX 10 MAIL.Example.COM.') }
    const { key, rrset, rrsig } = parts(shouted)
    expect(rrset[0]!.name).toBe('EXAMPLE.com')
    expect(checkRRset({ owner: nameOf('example.com'), type: 'MX', rrset, rrsigs: [rrsig], signer: nameOf('example.com'), keys: [key], now: v.now }).ok).toBe(true)
  })
})

describe('DS digests of RFC 4034 §5.4 and RFC 4509 §2.3', () => {
  const key = decodedRecords(
    'dskey.example.com. 86400 IN DNSKEY 256 3 5 AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==',
  )[0] as DnskeyRecord
  const owner = nameOf('dskey.example.com')

  it('key tag 60485, SHA-1 and SHA-256 digests', () => {
    expect(key.data.keyTag).toBe(60485)
    expect(dsDigest(owner, key.data, 1)).toBe('2bb183af5f22588179a53b0a98631fad1a292118')
    expect(dsDigest(owner, key.data, 2)).toBe('d4b7d520e7bb5f0f67674a0cceb1e3e0614b93c4f9e99b8383f6a1e4469da50a')
  })

  it('digest types that are not implemented give no digest; a wrong tag or algorithm never matches', () => {
    expect(dsDigest(owner, key.data, 3)).toBeUndefined()
    const ds = { keyTag: 60485, algorithm: 5, digestType: 1, digest: '2BB183AF5F22588179A53B0A98631FAD1A292118' }
    expect(dsMatchesKey(owner, ds, key.data)).toBe(true)
    expect(dsMatchesKey(owner, { ...ds, keyTag: 60486 }, key.data)).toBe(false)
    expect(dsMatchesKey(owner, { ...ds, algorithm: 8 }, key.data)).toBe(false)
    expect(dsMatchesKey(nameOf('other.example.com'), ds, key.data)).toBe(false)
  })
})

describe('public keys', () => {
  it('rejects keys of the wrong length, points off the curve and RSA moduli outside RFC 5702 bounds', () => {
    expect(importDnskey(13, Buffer.alloc(63, 1).toString('base64'))).toMatchObject({ ok: false })
    expect(importDnskey(13, Buffer.alloc(64, 1).toString('base64'))).toMatchObject({ ok: false })
    expect(importDnskey(15, Buffer.alloc(31).toString('base64'))).toMatchObject({ ok: false })
    // RSASHA512 needs at least 1024 bits; the 512-bit RFC 5702 §6.1 key is only valid for RSASHA256
    const small = 'AwEAAcFcGsaxxdgiuuGmCkVImy4h99CqT7jwY3pexPGcnUFtR2Fh36BponcwtkZ4cAgtvd4Qs8PkxUdp6p/DlUmObdk='
    expect(importDnskey(8, small)).toMatchObject({ ok: true, value: { bits: 512 } })
    expect(importDnskey(10, small)).toMatchObject({ ok: false })
    expect(importDnskey(99, small)).toMatchObject({ ok: false })
  })

  it('reads RSA exponents longer than 255 bytes (RFC 3110 three-byte length)', () => {
    const key = Buffer.concat([Buffer.from([0, 0, 3]), Buffer.from([1, 0, 1]), Buffer.alloc(128, 0xc3)])
    expect(keySizeOf(8, key.toString('base64'))).toBe(1024)
  })
})

describe('validity windows use serial number arithmetic (RFC 4034 §3.1.5)', () => {
  const rdata = (inception: number, expiration: number) => {
    const b = Buffer.alloc(20)
    b.writeUInt32BE(expiration >>> 0, 8)
    b.writeUInt32BE(inception >>> 0, 12)
    return b
  }
  it('inside, before, after', () => {
    expect(timeStatus(rdata(100, 200), 150)).toBe('valid')
    expect(timeStatus(rdata(100, 200), 99)).toBe('not_yet_valid')
    expect(timeStatus(rdata(100, 200), 201)).toBe('expired')
  })
  it('a window across the 2106 wrap of the 32-bit field', () => {
    const wrap = 2 ** 32
    expect(timeStatus(rdata(wrap - 100, 100), wrap + 50)).toBe('valid')
    expect(timeStatus(rdata(wrap - 100, 100), wrap + 150)).toBe('expired')
  })
})
