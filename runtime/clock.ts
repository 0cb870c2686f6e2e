// The service's one source of the date. Everything that turns "now" into an answer
// (ages, days left, validity windows, expiries, timestamps, cache freshness, rate
// windows) reads it from the Clock the app was built with (createApp's `clock`,
// handed to plugins as api.clock and to resolvers as ctx.clock), never from
// Date.now(): tests and recorded examples run under a fixed instant and give the
// same answer on any day.
//
// Durations and deadlines are not dates: they use performance.now(), which a fixed
// clock must not freeze.
//
// One thing the clock cannot reach: OpenSSL checks certificate validity against the
// process's real time during TLS handshakes (socket.authorized). The service's own
// judgements (expired, not yet valid, days left) use the clock.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
}

/** The host's clock. */
export const systemClock: Clock = Object.freeze({ now: () => Date.now() })

/** A clock that says what it is told: a fixed instant that moves only when a test moves it. */
export interface SettableClock extends Clock {
  set(at: Date | string | number): void
  advance(ms: number): void
}

function toMs(at: Date | string | number): number {
  const ms = at instanceof Date ? at.getTime() : typeof at === 'string' ? Date.parse(at) : at
  if (!Number.isFinite(ms)) throw new Error(`Not an instant: ${String(at)}`)
  return ms
}

export function defineFixedClock(at: Date | string | number): SettableClock {
  let ms = toMs(at)
  return {
    now: () => ms,
    set: (next) => void (ms = toMs(next)),
    advance: (by) => void (ms += by),
  }
}

/**
 * The ISO 8601 text of the clock's now. toISOString allocates a Date and a string
 * per call; under load many requests share a millisecond, so the string is reused
 * until the clock moves.
 */
export function defineIsoNow(clock: Clock): () => string {
  let lastMs = Number.NaN
  let lastIso = ''
  return () => {
    const now = clock.now()
    if (now !== lastMs) {
      lastMs = now
      lastIso = new Date(now).toISOString()
    }
    return lastIso
  }
}
