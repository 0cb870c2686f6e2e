import { describe, expect, it } from 'vitest'
import { CIPHER_SUITE_TABLE } from '../../plugins/tls/cipher-suite-data.ts'
import { CIPHER_SUITES, LEGACY_SUITES, suiteByName, suiteOf, TLS13_SUITES } from '../../plugins/tls/cipher-suites.ts'

// The suite table (IANA names and code points, OpenSSL names) and the rating read from the names.

describe('the suite table', () => {
  it('has unique code points and names, every name understood', () => {
    const codes = CIPHER_SUITE_TABLE.map(([code]) => code)
    expect(new Set(codes).size).toBe(codes.length)
    const names = CIPHER_SUITE_TABLE.map(([, name]) => name)
    expect(new Set(names).size).toBe(names.length)
    const openssl = CIPHER_SUITE_TABLE.map(([, , o]) => o).filter((o) => o !== null)
    expect(new Set(openssl).size).toBe(openssl.length)
    expect(CIPHER_SUITES.size).toBe(CIPHER_SUITE_TABLE.length)
    expect(CIPHER_SUITES.size).toBeGreaterThan(330)
  })

  it('TLS 1.3 suites apart; the legacy list is strongest first', () => {
    expect(TLS13_SUITES).toEqual([0x1301, 0x1302, 0x1303, 0x1304, 0x1305])
    expect(LEGACY_SUITES).toHaveLength(CIPHER_SUITES.size - 5)
    expect(suiteOf(LEGACY_SUITES[0]!).strength).toBe('recommended')
    expect(suiteOf(LEGACY_SUITES.at(-1)!).strength).toBe('insecure')
  })

  it('lookups by IANA and OpenSSL name, and unknown code points', () => {
    expect(suiteByName('ECDHE-RSA-AES128-GCM-SHA256')?.code).toBe(0xc02f)
    expect(suiteByName('TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256')?.code).toBe(0xc02f)
    expect(suiteByName('DES-CBC3-SHA')?.code).toBe(0x000a)
    expect(suiteOf(0xfafa)).toMatchObject({ name: 'UNKNOWN_0xfafa', strength: 'weak' })
  })
})

describe('ratings', () => {
  const rated = (code: number) => {
    const s = suiteOf(code)
    return [s.strength, s.forward_secrecy, s.key_exchange, s.authentication, s.encryption, s.bits, s.mac]
  }
  it.each([
    [0x1301, ['recommended', true, 'any', 'any', 'AES_128_GCM', 128, 'AEAD']],
    [0x1303, ['recommended', true, 'any', 'any', 'CHACHA20_POLY1305', 256, 'AEAD']],
    [0x1305, ['secure', true, 'any', 'any', 'AES_128_CCM_8', 128, 'AEAD']],
    [0xc02b, ['recommended', true, 'ECDHE', 'ECDSA', 'AES_128_GCM', 128, 'AEAD']],
    [0xcca8, ['recommended', true, 'ECDHE', 'RSA', 'CHACHA20_POLY1305', 256, 'AEAD']],
    [0x009e, ['secure', true, 'DHE', 'RSA', 'AES_128_GCM', 128, 'AEAD']],
    [0xc05c, ['secure', true, 'ECDHE', 'ECDSA', 'ARIA_128_GCM', 128, 'AEAD']],
    [0xc013, ['weak', true, 'ECDHE', 'RSA', 'AES_128_CBC', 128, 'SHA']],
    [0x009c, ['weak', false, 'RSA', 'RSA', 'AES_128_GCM', 128, 'AEAD']],
    [0x000a, ['weak', false, 'RSA', 'RSA', '3DES_EDE_CBC', 112, 'SHA']],
    [0x0005, ['insecure', false, 'RSA', 'RSA', 'RC4_128', 128, 'SHA']],
    [0x0003, ['insecure', false, 'RSA', 'RSA', 'RC4_40', 40, 'MD5']],
    [0x0009, ['insecure', false, 'RSA', 'RSA', 'DES_CBC', 56, 'SHA']],
    [0x0002, ['insecure', false, 'RSA', 'RSA', 'NULL', 0, 'SHA']],
    [0x00a6, ['insecure', false, 'DHE', 'anon', 'AES_128_GCM', 128, 'AEAD']],
    [0xc018, ['insecure', false, 'ECDHE', 'anon', 'AES_128_CBC', 128, 'SHA']],
    [0x0062, ['insecure', false, 'RSA', 'RSA', 'DES_CBC', 56, 'SHA']],
  ])('code %i', (code, expected) => {
    expect(rated(code)).toEqual(expected)
  })

  it('every rating below the top says why', () => {
    for (const s of CIPHER_SUITES.values()) {
      if (s.strength === 'recommended') expect(s.concerns, s.name).toEqual([])
      else if (s.strength !== 'secure') expect(s.concerns.length, s.name).toBeGreaterThan(0)
    }
    expect(suiteOf(0x009c).concerns).toContain('no forward secrecy')
    expect(suiteOf(0x000a).concerns).toContain('64-bit block cipher (Sweet32)')
  })
})
