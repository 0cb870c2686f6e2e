// The letter grade, in the manner of SSL Labs' rating guide: a score from
// protocol support (30 %), key exchange strength (30 %) and cipher strength
// (40 %), mapped to A..F, then capped by findings (a finding names its cap),
// then A+ for a clean A with a long HSTS policy and A- for an A without TLS 1.3.
// Trust problems replace the letter with T, a name mismatch with M (T wins);
// `grade_if_trusted` keeps the letter the configuration itself earns.

export const GRADES = ['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'F'] as const
export type Letter = (typeof GRADES)[number]
export type Grade = Letter | 'T' | 'M'

export interface Score {
  protocol: number
  key_exchange: number
  cipher_strength: number
  total: number
}

const PROTOCOL_SCORE: Record<string, number> = { SSLv3: 80, 'TLSv1.0': 90, 'TLSv1.1': 95, 'TLSv1.2': 100, 'TLSv1.3': 100 }

export function protocolScore(supported: readonly string[]): number {
  const scores = supported.map((p) => PROTOCOL_SCORE[p] ?? 0)
  if (scores.length === 0) return 0
  return (Math.max(...scores) + Math.min(...scores)) / 2
}

/** RSA-equivalent strength of a key (NIST SP 800-57 comparable strengths). */
export function rsaEquivalent(type: string, bits: number | null): number {
  if (bits === null) return 0
  if (type === 'EC' || type === 'Ed25519' || type === 'Ed448') return bits >= 512 ? 15360 : bits >= 384 ? 7680 : bits >= 256 ? 3072 : bits >= 224 ? 2048 : 1024
  return bits
}

export function keyExchangeScore(rsaBits: number): number {
  if (rsaBits < 512) return 0
  if (rsaBits < 1024) return 40
  if (rsaBits < 2048) return 80
  if (rsaBits < 4096) return 90
  return 100
}

function bitsScore(bits: number): number {
  if (bits === 0) return 0
  if (bits < 128) return 20
  if (bits < 256) return 80
  return 100
}

export function cipherScore(bits: readonly number[]): number {
  if (bits.length === 0) return 0
  return (bitsScore(Math.max(...bits)) + bitsScore(Math.min(...bits))) / 2
}

export function letterOf(total: number): Letter {
  if (total >= 80) return 'A'
  if (total >= 65) return 'B'
  if (total >= 50) return 'C'
  if (total >= 35) return 'D'
  if (total >= 20) return 'E'
  return 'F'
}

/** The lower of two letters. */
export function lower(a: Letter, b: Letter): Letter {
  return GRADES.indexOf(a) >= GRADES.indexOf(b) ? a : b
}

export interface GradeInput {
  score: Score
  caps: readonly Letter[]
  /** A finding at medium severity or above exists (no A+ then). */
  warnings: boolean
  hstsLong: boolean
  tls13: boolean
  trusted: boolean
  nameMatches: boolean
}

export function grade(input: GradeInput): { grade: Grade; grade_if_trusted: Letter } {
  let letter = letterOf(input.score.total)
  for (const cap of input.caps) letter = lower(letter, cap)
  if (letter === 'A') {
    if (!input.tls13) letter = 'A-'
    else if (input.hstsLong && !input.warnings) letter = 'A+'
  }
  return { grade: !input.trusted ? 'T' : !input.nameMatches ? 'M' : letter, grade_if_trusted: letter }
}
