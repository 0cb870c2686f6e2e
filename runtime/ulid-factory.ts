import { randomFillSync } from 'node:crypto'

// ULIDs (request ids, the ulid endpoints), monotonic within the process.
//
// Hand-written rather than ulid's monotonicFactory: every response carries one,
// and the library re-encodes the 10 time characters and all 16 random characters
// on every call (and its default PRNG draws one byte per crypto call). Here the
// time characters are kept per millisecond and the random part is a string of 15
// characters plus a last digit that is incremented in place, so a call in the
// same millisecond is two string concatenations. The output is exactly what
// ulid's monotonicFactory produces: 48-bit time, 80 random bits incremented by one
// within a millisecond (test/gateway/ulid-factory.test.ts checks it against
// ulid's decodeTime and ordering).

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const TIME_LEN = 10
const RANDOM_LEN = 16

/** Bytes for the random part; the default draws from a 4 KiB crypto pool. */
export type RandomDigits = (digits: Uint8Array) => void

const pool = Buffer.allocUnsafe(4096)
let cursor = pool.length

export function cryptoDigits(digits: Uint8Array): void {
  for (let i = 0; i < digits.length; i++) {
    if (cursor === pool.length) {
      randomFillSync(pool)
      cursor = 0
    }
    // 256 is a multiple of 32: the low five bits of a uniform byte are uniform.
    digits[i] = pool[cursor++]! & 31
  }
}

function encodeTime(ms: number): string {
  let out = ''
  for (let i = TIME_LEN - 1; i >= 0; i--) {
    const mod = ms % 32
    out = ALPHABET[mod]! + out
    ms = (ms - mod) / 32
  }
  return out
}

/** A monotonic ULID generator: ids increase within a process even inside one millisecond. */
export function createUlidFactory(random: RandomDigits, now: () => number): () => string {
  const digits = new Uint8Array(RANDOM_LEN)
  let lastMs = -1
  let time = ''
  // The random part but its last character, rebuilt only when a carry reaches it.
  let head = ''

  const rebuildHead = () => {
    head = ''
    for (let i = 0; i < RANDOM_LEN - 1; i++) head += ALPHABET[digits[i]!]
  }

  return () => {
    const ms = now()
    if (ms > lastMs) {
      lastMs = ms
      time = encodeTime(ms)
      random(digits)
      rebuildHead()
    } else {
      // Same millisecond, or the clock stepped back: keep the last time and count up.
      let i = RANDOM_LEN - 1
      while (i >= 0 && digits[i] === 31) digits[i--] = 0
      if (i < 0) throw new Error('ULID random part overflowed within one millisecond')
      digits[i]!++
      if (i < RANDOM_LEN - 1) rebuildHead()
    }
    return time + head + ALPHABET[digits[RANDOM_LEN - 1]!]
  }
}
