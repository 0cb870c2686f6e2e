// When the loopback internet lives. Its dated data — certificate validity, OCSP
// staples, RDAP expiry dates, VRP expiries, security.txt Expires — is made around
// one instant, so a service whose clock says that instant sees a consistent world.
//
// Two worlds:
// - hostTime(): around the host's now, for tests that run the service on the
//   host's clock (and under libfaketime, around the faked now).
// - exampleTime(): around EXAMPLE_INSTANT, for the recorded examples of the API
//   reference, which the service answers under a fixed clock at that instant
//   (scripts/docs-examples.ts) and so come out the same on any day.
//
// OpenSSL checks certificate validity during the handshake against the host's
// real time, not the service clock. The example world's certificates are
// therefore valid across a wide window around EXAMPLE_INSTANT (years either side),
// so handshakes verify today, under the CI's moved clocks, and for decades.

const DAY = 86_400_000
const YEAR = 365 * DAY

export interface Validity {
  notBefore: Date
  notAfter: Date
}

export interface WorldTime {
  /** The world's now, ms since the epoch. */
  now: number
  /** Validity of the world's CA certificates. */
  ca: Validity
  /** Validity of the world's server certificates. */
  leaf: Validity
}

const around = (now: number, before: number, after: number): Validity => ({ notBefore: new Date(now - before), notAfter: new Date(now + after) })

export function hostTime(now = Date.now()): WorldTime {
  return { now, ca: around(now, 365 * DAY, 10 * YEAR), leaf: around(now, DAY, 90 * DAY) }
}

/** The instant the API reference's examples are recorded and checked at. */
export const EXAMPLE_INSTANT = Date.parse('2026-06-01T12:00:00Z')

export function exampleTime(): WorldTime {
  const wide = around(EXAMPLE_INSTANT, 5 * YEAR, 20 * YEAR)
  return { now: EXAMPLE_INSTANT, ca: wide, leaf: wide }
}
