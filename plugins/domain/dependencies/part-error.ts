import type { z } from 'zod'
import type { ResolverContext } from '../../../runtime/define-plugin.ts'
import { isApiError } from '../../../runtime/errors.ts'
import type { PartErrorData } from '../../../registry/network/schemas/routing-data.ts'

export type PartError = z.input<typeof PartErrorData>

/**
 * A failed part of the dependencies answer (a DNS question, one address's
 * lookup), as `errors` reports it. Anything not one of the runtime's typed
 * errors is a bug in that part: logged like a 500, and only that part fails.
 */
export function partError(part: string, error: unknown, ctx: ResolverContext): PartError {
  if (isApiError(error)) {
    const d = error.details as { upstream?: unknown; reason?: unknown }
    return { part, code: error.code, message: error.message, upstream: typeof d.upstream === 'string' ? d.upstream : null, reason: typeof d.reason === 'string' ? d.reason : null }
  }
  if (ctx.signal.aborted) return { part, code: 'client_closed_request', message: 'The request ended before this part was done.', upstream: null, reason: null }
  ctx.log.error({ err: error, part }, 'domain dependencies: a part failed unexpectedly')
  return { part, code: 'internal_error', message: 'This part failed unexpectedly; the error was logged with the request id.', upstream: null, reason: null }
}
