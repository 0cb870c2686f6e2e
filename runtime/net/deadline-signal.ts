// A request's deadline as an AbortSignal: fires after timeoutMs, or when the
// caller's signal aborts.

const keepTimeout = Symbol('timeout')

export function deadlineSignal(timeoutMs: number, signal?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs)
  if (!signal) return timeout
  const combined = AbortSignal.any([timeout, signal])
  // Node 20: AbortSignal.any holds its sources weakly, and AbortSignal.timeout's
  // timer goes with its signal, so a timeout signal nothing else references can be
  // garbage collected before it fires and the request then has no deadline. The
  // combined signal keeps it reachable (test/net/deadline-signal.test.ts).
  Object.defineProperty(combined, keepTimeout, { value: timeout })
  return combined
}
