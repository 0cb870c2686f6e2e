import type { MaybePromise } from './call.ts'
import { isPending } from './call.ts'
import { DeadlineError } from './errors.ts'

/**
 * `work` raced against a deadline of `ms` (a route's request deadline in
 * runtime/pipeline.ts, an invoked answer's own in runtime/invoke.ts): when the
 * deadline passes first, `expire` cancels what is still under way and the answer
 * is a DeadlineError (504 timeout). Work that is already done (a value, not a
 * promise) comes back as it is, with no promise and no timer: the pipeline's
 * synchronous path depends on that (test/gateway/sync-path.test.ts).
 */
export function raceDeadline<T>(work: MaybePromise<T>, ms: number, expire: () => void): MaybePromise<T> {
  if (!isPending(work)) return work
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      expire()
      reject(new DeadlineError(ms))
    }, ms)
  })
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer))
}
