import type { z } from 'zod'
import type { RipestatAnswer } from './ripestat/ripestat-client.ts'
import type { Dropped } from './ripestat/clean.ts'
import type { PartErrorData, RipestatMessageData } from '../../registry/network/schemas/routing-data.ts'
import { isApiError } from '../../runtime/errors.ts'

type Message = z.input<typeof RipestatMessageData>

/**
 * RIPEstat's messages of every call an answer used, plus our own note when we
 * dropped some of its data, once each.
 */
export function messagesOf(parts: ReadonlyArray<{ answer: RipestatAnswer; dropped?: Dropped }>): Message[] {
  const out: Message[] = []
  const seen = new Set<string>()
  for (const { answer, dropped } of parts) {
    const own = dropped?.describe(answer.call)
    const all = own ? [...answer.messages, { call: 'infralens', level: 'warning', text: own }] : answer.messages
    for (const m of all) {
      const key = `${m.level}\u0000${m.text}`
      if (seen.has(key)) continue
      seen.add(key)
      out.push({ call: m.call, level: m.level, text: m.text })
    }
  }
  return out
}

/** A failed part of a composite answer, as it is reported in `errors`. */
export function partError(part: string, error: unknown): z.input<typeof PartErrorData> {
  if (isApiError(error)) {
    const d = error.details as { upstream?: unknown; reason?: unknown }
    return {
      part,
      code: error.code,
      message: error.message,
      upstream: typeof d.upstream === 'string' ? d.upstream : null,
      reason: typeof d.reason === 'string' ? d.reason : null,
    }
  }
  return { part, code: 'internal_error', message: 'this part failed unexpectedly; the error was logged', upstream: null, reason: null }
}
