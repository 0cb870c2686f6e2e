// The two envelope shapes of the contract. Keys are built in contract order so the
// JSON reads the same way the spec lists them.

export interface Pagination {
  /** Items before paging; a decimal string when it can exceed 2^53 (address blocks). */
  total: number | string
  limit: number | undefined
  offset: number | string
  /** Per list, when the endpoint has several. */
  totals?: Record<string, number>
}

export interface SuccessMeta {
  cache: 'hit' | 'miss'
  category: string
  endpoint: string
  tier: string
  pagination?: Pagination
  /** Present when the answer is a cached one past its TTL, served because the upstream failed. */
  stale?: { reason: string; expired_at: string }
}

export interface SuccessEnvelope {
  success: true
  data: unknown
  meta?: SuccessMeta
  links?: { self: string }
  timestamp: string
  request_id: string
}

export interface ErrorEnvelope {
  success: false
  error: { code: string; message: string; details: Record<string, unknown> }
  request_id: string
  timestamp: string
}

export function successEnvelope(
  data: unknown,
  meta: SuccessMeta | undefined,
  self: string | undefined,
  requestId: string,
  timestamp: string,
): SuccessEnvelope {
  // One literal per shape keeps the contract's key order with one allocation.
  if (meta !== undefined && self !== undefined) return { success: true, data, meta, links: { self }, timestamp, request_id: requestId }
  if (meta !== undefined) return { success: true, data, meta, timestamp, request_id: requestId }
  if (self !== undefined) return { success: true, data, links: { self }, timestamp, request_id: requestId }
  return { success: true, data, timestamp, request_id: requestId }
}

export function errorEnvelope(
  code: string,
  message: string,
  details: Record<string, unknown>,
  requestId: string,
  timestamp: string,
): ErrorEnvelope {
  return { success: false, error: { code, message, details }, request_id: requestId, timestamp }
}
