import { randomFillSync } from 'node:crypto'
import { monotonicFactory } from 'ulid'

// ULIDs (request ids, the ulid endpoints). ulid's default PRNG calls crypto.getRandomValues for one
// byte at a time, 16 times per new millisecond (~25 µs per request at moderate
// load, measured); this PRNG hands out bytes from a pool refilled 4 KiB at a time.

const POOL_SIZE = 4096
const pool = Buffer.allocUnsafe(POOL_SIZE)
let cursor = POOL_SIZE

function pooledRandom(): number {
  if (cursor === POOL_SIZE) {
    randomFillSync(pool)
    cursor = 0
  }
  return pool[cursor++]! / 256
}

/** A monotonic ULID generator: ids increase within a process even inside one millisecond. */
export function createUlidFactory(): () => string {
  return monotonicFactory(pooledRandom)
}
