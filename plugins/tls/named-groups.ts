// The TLS Supported Groups registry (IANA "TLS Parameters", RFC 8422, RFC 7919,
// RFC 8446, draft-ietf-tls-ecdhe-mlkem and draft-ietf-tls-mlkem): the key
// exchanges a ClientHello can offer, which protocol versions may use each, and
// which are post-quantum. The group scan (group-scan.ts) offers each of these
// alone; only code points we can name are offered, so an answer always means
// something.

export type GroupKind = 'ecdhe' | 'ffdhe' | 'hybrid' | 'mlkem'

export interface NamedGroup {
  id: number
  /** IANA name (X25519MLKEM768, secp256r1, ffdhe2048, ...). */
  name: string
  kind: GroupKind
  /** Resists a quantum adversary (ML-KEM, alone or in a hybrid). */
  post_quantum: boolean
  /** Usable in TLS 1.2 ECDHE (RFC 8422): the elliptic curves. */
  tls12: boolean
  /** Usable in TLS 1.3 (RFC 8446 §4.2.7 and the later registrations). */
  tls13: boolean
}

const ec = (id: number, name: string, tls13: boolean): NamedGroup => ({ id, name, kind: 'ecdhe', post_quantum: false, tls12: true, tls13 })
const ff = (id: number, name: string): NamedGroup => ({ id, name, kind: 'ffdhe', post_quantum: false, tls12: false, tls13: true })
const pq = (id: number, name: string, kind: 'hybrid' | 'mlkem'): NamedGroup => ({ id, name, kind, post_quantum: true, tls12: false, tls13: true })

export const NAMED_GROUPS: readonly NamedGroup[] = [
  // Post-quantum first: what the scan is most often asked about.
  pq(0x11ec, 'X25519MLKEM768', 'hybrid'),
  pq(0x11eb, 'SecP256r1MLKEM768', 'hybrid'),
  pq(0x11ed, 'SecP384r1MLKEM1024', 'hybrid'),
  pq(0x6399, 'X25519Kyber768Draft00', 'hybrid'),
  pq(0x639a, 'SecP256r1Kyber768Draft00', 'hybrid'),
  pq(0x0200, 'MLKEM512', 'mlkem'),
  pq(0x0201, 'MLKEM768', 'mlkem'),
  pq(0x0202, 'MLKEM1024', 'mlkem'),
  ec(29, 'x25519', true),
  ec(30, 'x448', true),
  ec(23, 'secp256r1', true),
  ec(24, 'secp384r1', true),
  ec(25, 'secp521r1', true),
  { id: 31, name: 'brainpoolP256r1tls13', kind: 'ecdhe', post_quantum: false, tls12: false, tls13: true },
  { id: 32, name: 'brainpoolP384r1tls13', kind: 'ecdhe', post_quantum: false, tls12: false, tls13: true },
  { id: 33, name: 'brainpoolP512r1tls13', kind: 'ecdhe', post_quantum: false, tls12: false, tls13: true },
  ec(26, 'brainpoolP256r1', false),
  ec(27, 'brainpoolP384r1', false),
  ec(28, 'brainpoolP512r1', false),
  ec(22, 'secp256k1', false),
  ec(21, 'secp224r1', false),
  ec(20, 'secp224k1', false),
  ec(19, 'secp192r1', false),
  ec(18, 'secp192k1', false),
  ec(17, 'secp160r2', false),
  ec(16, 'secp160r1', false),
  ec(15, 'secp160k1', false),
  ec(14, 'sect571r1', false),
  ec(13, 'sect571k1', false),
  ec(12, 'sect409r1', false),
  ec(11, 'sect409k1', false),
  ec(10, 'sect283r1', false),
  ec(9, 'sect283k1', false),
  ec(8, 'sect239k1', false),
  ec(7, 'sect233r1', false),
  ec(6, 'sect233k1', false),
  ec(5, 'sect193r2', false),
  ec(4, 'sect193r1', false),
  ec(3, 'sect163r2', false),
  ec(2, 'sect163r1', false),
  ec(1, 'sect163k1', false),
  ff(256, 'ffdhe2048'),
  ff(257, 'ffdhe3072'),
  ff(258, 'ffdhe4096'),
  ff(259, 'ffdhe6144'),
  ff(260, 'ffdhe8192'),
]

const BY_ID = new Map(NAMED_GROUPS.map((g) => [g.id, g]))

export function namedGroup(id: number): NamedGroup | undefined {
  return BY_ID.get(id)
}

export function groupName(id: number): string {
  return BY_ID.get(id)?.name ?? `0x${id.toString(16).padStart(4, '0')}`
}

/** Security of an elliptic-curve or finite-field group in bits, for the weak-group judgement. */
export function groupBits(id: number): number | null {
  const name = groupName(id)
  if (/^(x25519|secp256r1|secp256k1|brainpoolP256)/i.test(name)) return 128
  if (/^(x448)/.test(name)) return 224
  if (/^(secp384r1|brainpoolP384)/.test(name)) return 192
  if (/^(secp521r1|brainpoolP512)/.test(name)) return 256
  if (/^(secp224|sect233|sect239)/.test(name)) return 112
  if (/^(secp192|sect193|secp160|sect163)/.test(name)) return 80
  if (/^(sect283)/.test(name)) return 128
  if (/^(sect409)/.test(name)) return 192
  if (/^(sect571)/.test(name)) return 256
  const ffdhe = /^ffdhe(\d+)$/.exec(name)
  if (ffdhe) return ({ 2048: 112, 3072: 128, 4096: 152, 6144: 176, 8192: 200 } as Record<string, number>)[ffdhe[1]!] ?? null
  return namedGroup(id)?.post_quantum ? 128 : null
}
