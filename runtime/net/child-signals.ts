import { setMaxListeners } from 'node:events'

// Child signals of a request's signal for the probes of one answer (TLS handshakes,
// SMTP STARTTLS): each with a deadline of its own, or many behind one listener.

/**
 * An abort signal that fires after `ms` or when `parent` aborts, held by a real
 * timer. Not AbortSignal.any(AbortSignal.timeout(...)): Node 20 holds the sources
 * of such a composite weakly, and under GC pressure the timeout can be collected
 * before it fires — a silent server then hangs the request until its 504.
 */
export function deadline(parent: AbortSignal, ms: number, reason = `timed out after ${ms} ms`): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController()
  const onParent = () => controller.abort(parent.reason)
  const timer = setTimeout(() => controller.abort(new DOMException(reason, 'TimeoutError')), ms)
  if (parent.aborted) onParent()
  else parent.addEventListener('abort', onParent, { once: true })
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer)
      parent.removeEventListener('abort', onParent)
    },
  }
}

/**
 * One child signal for a bounded crowd of waiters (a scan's probes, each with its
 * own deadline on it): the parent — the request's signal — gets a single
 * listener however many probes run, and the child allows exactly `listeners`,
 * the caller's bound, so Node's MaxListenersExceededWarning stays quiet for the
 * bounded fan-out and still speaks up for a real leak past it.
 */
export function fanOut(parent: AbortSignal, listeners: number): { signal: AbortSignal; close(): void } {
  const controller = new AbortController()
  setMaxListeners(listeners, controller.signal)
  const onParent = () => controller.abort(parent.reason)
  if (parent.aborted) onParent()
  else parent.addEventListener('abort', onParent, { once: true })
  return { signal: controller.signal, close: () => parent.removeEventListener('abort', onParent) }
}
