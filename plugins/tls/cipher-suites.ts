import { CIPHER_SUITE_TABLE } from './cipher-suite-data.ts'

// Cipher suites with their properties read from the IANA name, and a strength
// rating in four steps (after ciphersuite.info, stricter on key exchange):
//   insecure     broken: no encryption, no authentication, export grade, RC4,
//                DES, RC2, MD5 MACs
//   weak         works but falls short: no forward secrecy, CBC mode (Lucky 13,
//                padding oracles), 64-bit blocks (Sweet32: 3DES, IDEA)
//   secure       forward secret and AEAD
//   recommended  forward secret and AEAD with (EC)DHE or TLS 1.3 and AES-GCM or
//                ChaCha20-Poly1305: what Mozilla's "intermediate" profile offers
// Finite-field DHE with AEAD stays "secure": its strength rests on the group the
// server picks, which a suite does not say.

export type Strength = 'insecure' | 'weak' | 'secure' | 'recommended'

export const STRENGTH_ORDER: readonly Strength[] = ['insecure', 'weak', 'secure', 'recommended']

export interface CipherSuite {
  code: number
  /** IANA name (TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256). */
  name: string
  openssl_name: string | null
  tls13: boolean
  /** ECDHE, DHE, RSA, DH, ECDH, PSK, DHE_PSK, ECDHE_PSK, RSA_PSK, SRP, KRB5; "any" for TLS 1.3. */
  key_exchange: string
  /** RSA, ECDSA, DSS, anon, PSK, SRP, KRB5; "any" for TLS 1.3 (the certificate decides). */
  authentication: string
  /** AES_128_GCM, CHACHA20_POLY1305, 3DES_EDE_CBC, RC4_128, NULL, ... */
  encryption: string
  /** Effective symmetric strength in bits (3DES: 112, export: 40, NULL: 0). */
  bits: number
  /** AEAD, or the HMAC hash (SHA = SHA-1). */
  mac: string
  aead: boolean
  forward_secrecy: boolean
  export: boolean
  strength: Strength
  /** Why the rating is not higher. */
  concerns: string[]
}

const KEY_EXCHANGE: Record<string, [kx: string, auth: string]> = {
  RSA: ['RSA', 'RSA'],
  DH_DSS: ['DH', 'DSS'],
  DH_RSA: ['DH', 'RSA'],
  DHE_DSS: ['DHE', 'DSS'],
  DHE_RSA: ['DHE', 'RSA'],
  DH_anon: ['DHE', 'anon'],
  ECDH_ECDSA: ['ECDH', 'ECDSA'],
  ECDHE_ECDSA: ['ECDHE', 'ECDSA'],
  ECDH_RSA: ['ECDH', 'RSA'],
  ECDHE_RSA: ['ECDHE', 'RSA'],
  ECDH_anon: ['ECDHE', 'anon'],
  PSK: ['PSK', 'PSK'],
  DHE_PSK: ['DHE_PSK', 'PSK'],
  PSK_DHE: ['DHE_PSK', 'PSK'],
  RSA_PSK: ['RSA_PSK', 'RSA'],
  ECDHE_PSK: ['ECDHE_PSK', 'PSK'],
  SRP_SHA: ['SRP', 'SRP'],
  SRP_SHA_RSA: ['SRP', 'RSA'],
  SRP_SHA_DSS: ['SRP', 'DSS'],
  KRB5: ['KRB5', 'KRB5'],
}

const FORWARD_SECRET = new Set(['ECDHE', 'DHE', 'DHE_PSK', 'ECDHE_PSK'])

function bitsOf(encryption: string, exported: boolean, export1024: boolean): number {
  if (encryption === 'NULL') return 0
  if (exported) return export1024 ? 56 : 40
  const explicit = /_(40|56|128|256)(?:_|$)/.exec(encryption)
  if (explicit) return Number(explicit[1])
  if (encryption.startsWith('3DES')) return 112
  if (encryption.startsWith('DES40')) return 40
  if (encryption.startsWith('DES')) return 56
  if (encryption.startsWith('CHACHA20')) return 256
  return 128 // IDEA, SEED
}

function rate(s: Omit<CipherSuite, 'strength' | 'concerns'>): { strength: Strength; concerns: string[] } {
  const broken: string[] = []
  if (s.encryption === 'NULL') broken.push('no encryption')
  if (s.authentication === 'anon') broken.push('no authentication (anonymous key exchange)')
  if (s.export) broken.push('export-grade key sizes')
  if (s.encryption.startsWith('RC4')) broken.push('RC4 (RFC 7465 prohibits it)')
  if (/^DES(40)?_/.test(s.encryption)) broken.push('single DES')
  if (s.encryption.startsWith('RC2')) broken.push('RC2')
  if (s.mac === 'MD5') broken.push('MD5 MAC')
  if (broken.length) return { strength: 'insecure', concerns: broken }

  const concerns: string[] = []
  if (!s.forward_secrecy) concerns.push('no forward secrecy')
  if (s.encryption.startsWith('3DES') || s.encryption.startsWith('IDEA')) concerns.push('64-bit block cipher (Sweet32)')
  if (!s.aead) concerns.push('CBC mode (Lucky 13 and padding-oracle class attacks)')
  if (concerns.length) return { strength: 'weak', concerns }

  const modern = /^(AES_(128|256)_GCM|CHACHA20_POLY1305)$/.test(s.encryption)
  if (modern && (s.tls13 || s.key_exchange === 'ECDHE') && s.authentication !== 'PSK') return { strength: 'recommended', concerns: [] }
  const why: string[] = []
  if (!modern) why.push(s.encryption.includes('CCM_8') ? '64-bit authentication tag (CCM_8)' : `${s.encryption.split('_')[0]} is sound but not a mainstream choice`)
  if (s.key_exchange === 'DHE') why.push('finite-field DHE: strength depends on the server group size')
  if (s.authentication === 'PSK') why.push('pre-shared-key suite')
  return { strength: 'secure', concerns: why }
}

export function describeSuite(code: number, name: string, openssl: string | null): CipherSuite {
  const tls13 = /^TLS_(AES_128_GCM|AES_256_GCM|CHACHA20_POLY1305|AES_128_CCM|AES_128_CCM_8)_SHA(256|384)$/.exec(name)
  if (tls13) {
    const encryption = tls13[1]!
    const base = {
      code,
      name,
      openssl_name: openssl,
      tls13: true,
      key_exchange: 'any',
      authentication: 'any',
      encryption,
      bits: bitsOf(encryption, false, false),
      mac: 'AEAD',
      aead: true,
      forward_secrecy: true,
      export: false,
    }
    return { ...base, ...rate(base) }
  }
  const m = /^TLS_(.+?)_WITH_(.+)$/.exec(name.replace(/_OLD$/, ''))
  if (!m) throw new Error(`cipher suite name not understood: ${name}`)
  let kxPart = m[1]!
  const export1024 = kxPart.includes('_EXPORT1024')
  const exported = export1024 || kxPart.includes('_EXPORT')
  kxPart = kxPart.replace(/_EXPORT(1024)?/, '')
  const kx = KEY_EXCHANGE[kxPart]
  if (!kx) throw new Error(`key exchange not understood: ${name}`)
  let rest = m[2]!
  let mac = ''
  const macMatch = /_(MD5|SHA|SHA256|SHA384)$/.exec(rest)
  if (macMatch) {
    mac = macMatch[1]!
    rest = rest.slice(0, -macMatch[0].length)
  }
  const aead = /(GCM|CCM|CCM_8|POLY1305)$/.test(rest)
  const base = {
    code,
    name,
    openssl_name: openssl,
    tls13: false,
    key_exchange: kx[0],
    authentication: kx[1],
    encryption: rest,
    bits: bitsOf(rest, exported, export1024),
    mac: aead ? 'AEAD' : mac,
    aead,
    forward_secrecy: FORWARD_SECRET.has(kx[0]) && kx[1] !== 'anon',
    export: exported,
  }
  const rated = rate(base)
  if (name.endsWith('_OLD') && rated.strength === 'recommended') return { ...base, strength: 'secure', concerns: ['pre-standard draft code point'] }
  return { ...base, ...rated }
}

export const CIPHER_SUITES: ReadonlyMap<number, CipherSuite> = new Map(CIPHER_SUITE_TABLE.map(([code, name, openssl]) => [code, describeSuite(code, name, openssl)]))

/** A suite the table does not know (a server answered with an unlisted code point). */
export function suiteOf(code: number): CipherSuite {
  return (
    CIPHER_SUITES.get(code) ?? {
      code,
      name: `UNKNOWN_0x${code.toString(16).padStart(4, '0')}`,
      openssl_name: null,
      tls13: false,
      key_exchange: 'unknown',
      authentication: 'unknown',
      encryption: 'unknown',
      bits: 0,
      mac: 'unknown',
      aead: false,
      forward_secrecy: false,
      export: false,
      strength: 'weak',
      concerns: ['not in the IANA registry snapshot this service knows'],
    }
  )
}

const NAME_INDEX = new Map<string, CipherSuite>()
for (const suite of CIPHER_SUITES.values()) {
  NAME_INDEX.set(suite.name, suite)
  if (suite.openssl_name) NAME_INDEX.set(suite.openssl_name, suite)
}

/** A suite by its IANA name or the name OpenSSL (and so node:tls) uses for it. */
export function suiteByName(name: string): CipherSuite | undefined {
  return NAME_INDEX.get(name)
}

export const TLS13_SUITES: readonly number[] = [...CIPHER_SUITES.values()].filter((s) => s.tls13).map((s) => s.code)

const rank = (s: CipherSuite) => STRENGTH_ORDER.indexOf(s.strength) * 1000 + (s.forward_secrecy ? 500 : 0) + (s.aead ? 300 : 0) + s.bits

/**
 * The suites a TLS 1.2-or-older hello offers, strongest first: a server that
 * follows the client's order answers with the best suite it has.
 */
export const LEGACY_SUITES: readonly number[] = [...CIPHER_SUITES.values()]
  .filter((s) => !s.tls13)
  .sort((a, b) => rank(b) - rank(a) || a.code - b.code)
  .map((s) => s.code)
