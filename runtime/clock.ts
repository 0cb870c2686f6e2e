// toISOString allocates a Date and a string per call; under load many requests
// share a millisecond, so the string is reused until the clock moves.
let lastMs = -1
let lastIso = ''

export function isoNow(): string {
  const now = Date.now()
  if (now !== lastMs) {
    lastMs = now
    lastIso = new Date(now).toISOString()
  }
  return lastIso
}
