// How long the primary waits before replacing a worker that died. A worker that
// had been up a while is replaced at once (a crash, an OOM kill: the service
// should be whole again); one that keeps dying soon after starting waits twice as
// long each time, up to a ceiling, so a crash loop neither burns the CPU nor
// floods the log, and picks up again by itself once the cause is gone.

export const FIRST_DELAY_MS = 100
export const MAX_DELAY_MS = 30_000
/** A worker that lived this long is "stable": its slot's backoff starts over. */
export const STABLE_MS = 30_000

/** The wait before the replacement, after `earlyDeaths` deaths in a row of workers that lived less than STABLE_MS (1 = this one). */
export function restartDelay(earlyDeaths: number): number {
  if (earlyDeaths <= 0) return FIRST_DELAY_MS
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (earlyDeaths - 1))
}
