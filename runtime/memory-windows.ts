// Fixed-window counters in this process's memory, answered synchronously.
//
// Hand-written in place of rate-limiter-flexible's RateLimiterMemory for the
// single-instance store (Redis stays on the library, see limiter-store.ts): the
// library's memory limiter answers only through a promise, and every request
// pays for it. With the promise chain gone a routed request can run without one
// (runtime/call.ts Step); the limiter step was 43k of 225k instructions per
// /api/uuid request (callgrind, bench/RESULTS.md). The semantics are the
// library's, and a property test runs both side by side on the same operations
// and clock: a window opens with the first point spent and lasts `duration`
// seconds; refused points are counted (the layer gives them back); get() of no
// open window is null.

/** A window's state after an operation, in rate-limiter-flexible's terms. */
export interface WindowState {
  consumedPoints: number
  remainingPoints: number
  /** Milliseconds until the window closes. */
  msBeforeNext: number
}

interface Window {
  points: number
  expiresAt: number
}

export class MemoryWindows {
  readonly points: number
  readonly #durationMs: number
  readonly #now: () => number
  readonly #windows = new Map<string, Window>()
  #sweeper: NodeJS.Timeout | undefined

  constructor(options: { points: number; durationSeconds: number; now: () => number }) {
    this.points = options.points
    this.#durationMs = options.durationSeconds * 1000
    this.#now = options.now
  }

  /** Spends `points`; `refused` when the window is now over its limit (the points stay counted). */
  consume(key: string, points: number): { state: WindowState; refused: boolean } {
    const state = this.#add(key, points)
    return { state, refused: state.consumedPoints > this.points }
  }

  /** Gives points back to the open window (or opens one owing them, as the library does). */
  reward(key: string, points: number): WindowState {
    return this.#add(key, -points)
  }

  /** The open window's state, or null when the key has none. */
  get(key: string): WindowState | null {
    const window = this.#windows.get(key)
    if (window === undefined) return null
    const ms = window.expiresAt - this.#now()
    if (ms <= 0) {
      this.#windows.delete(key)
      return null
    }
    return this.#state(window, ms)
  }

  /** Open windows (expired ones are dropped as they are met and by the sweep). */
  get size(): number {
    return this.#windows.size
  }

  /** Stops the sweep timer (tests, shutdown). */
  close(): void {
    clearInterval(this.#sweeper)
    this.#sweeper = undefined
  }

  #add(key: string, points: number): WindowState {
    const now = this.#now()
    let window = this.#windows.get(key)
    if (window !== undefined && window.expiresAt > now) {
      window.points += points
      return this.#state(window, window.expiresAt - now)
    }
    window = { points, expiresAt: now + this.#durationMs }
    this.#windows.set(key, window)
    // One sweep per window length drops the windows of callers who went away,
    // instead of the library's timer per key.
    this.#sweeper ??= setInterval(() => this.#sweep(), this.#durationMs).unref()
    return this.#state(window, this.#durationMs)
  }

  #sweep(): void {
    const now = this.#now()
    for (const [key, window] of this.#windows) if (window.expiresAt <= now) this.#windows.delete(key)
    if (this.#windows.size === 0) this.close()
  }

  #state(window: Window, msBeforeNext: number): WindowState {
    return { consumedPoints: window.points, remainingPoints: Math.max(this.points - window.points, 0), msBeforeNext }
  }
}
