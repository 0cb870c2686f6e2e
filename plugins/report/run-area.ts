import type { z } from 'zod'
import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import { isApiError } from '../../runtime/errors.ts'
import type { AreaAnswer, AreaSkip } from './areas/answer.ts'
import type { Area, ReportFinding } from '../../registry/flagship/schemas/report-findings.ts'

// One area of the report: its parts asked through ctx.invoke (so they share the
// cache with their own routes) under the area's deadline; whatever goes wrong
// becomes the area's `failed` status, never the report's.

export interface Source {
  endpoint: string
  /** The part's own route with this input: the full answer behind the area. */
  url: string
  status: 'ok' | 'failed'
  cache: 'hit' | 'miss' | null
  ttl: number | null
  stale: boolean
}

export interface AreaError {
  code: string
  message: string
  upstream: string | null
}

export interface AreaResult {
  area: Area
  status: 'ok' | 'failed' | 'skipped'
  score: number | null
  grade: string | null
  summary: string | null
  reason: string | null
  error: AreaError | null
  findings: ReportFinding[]
  sources: Source[]
}

/** Asks one endpoint for the area; the answer's data, or the part's error thrown. */
export type Ask = <E extends AnyEndpoint>(endpoint: E, input: Readonly<Record<string, string>>) => Promise<z.input<E['data']>>

export function routeOf(endpoint: AnyEndpoint, input: Readonly<Record<string, string>>): string {
  const used = new Set<string>()
  const path = endpoint.path.replace(/(?:\*\*)?:([A-Za-z0-9_]+)/g, (_, name: string) => {
    used.add(name)
    return encodeURIComponent(input[name] ?? '')
  })
  const query = new URLSearchParams(Object.entries(input).filter(([name]) => !used.has(name)))
  return query.size ? `${path}?${query}` : path
}

function describe(error: unknown, area: Area, timeoutMs: number, ctx: ResolverContext): AreaError {
  if (!isApiError(error) && ctx.signal.aborted) {
    // The request is over (the client left, or its deadline passed): the part was
    // cut short on purpose, whatever it threw on the way out. Nobody reads this.
    return { code: 'client_closed_request', message: 'The request ended before this part was done.', upstream: null }
  }
  if (!isApiError(error)) {
    // A bug in one part must not sink the others; it is logged like any 500.
    ctx.log.error({ err: error, area }, 'report area failed unexpectedly')
    return { code: 'internal_error', message: 'This part failed unexpectedly; the error was logged with the request id.', upstream: null }
  }
  const upstream = typeof error.details.upstream === 'string' ? error.details.upstream : null
  if (error.code === 'timeout') return { code: 'timeout', message: `No answer within the ${timeoutMs} ms this part of the report may take.`, upstream }
  return { code: error.code, message: error.message, upstream }
}

/**
 * Runs `work` for an area: its asks share the area's deadline (`deadlineAt`, a
 * performance.now() time) and are recorded as sources. A thrown error fails the area;
 * an AreaSkip skips it.
 */
export async function runArea(area: Area, ctx: ResolverContext, deadlineAt: number, work: (ask: Ask) => Promise<AreaAnswer | AreaSkip>): Promise<AreaResult> {
  const sources: Source[] = []
  const timeoutMs = Math.max(1, Math.round(deadlineAt - performance.now()))
  const ask: Ask = async (endpoint, input) => {
    const source: Source = { endpoint: endpoint.name, url: routeOf(endpoint, input), status: 'failed', cache: null, ttl: null, stale: false }
    sources.push(source)
    const answer = await ctx.invoke(endpoint, input, { timeoutMs: Math.max(1, Math.round(deadlineAt - performance.now())) })
    Object.assign(source, { status: 'ok', cache: answer.cache, ttl: answer.ttl, stale: answer.stale !== undefined })
    return answer.data
  }
  const base = { area, score: null, grade: null, summary: null, reason: null, error: null, findings: [], sources }
  try {
    const outcome = await work(ask)
    if ('skipped' in outcome) return { ...base, status: 'skipped', reason: outcome.skipped }
    return { ...base, status: 'ok', ...outcome }
  } catch (error) {
    return { ...base, status: 'failed', error: describe(error, area, timeoutMs, ctx) }
  }
}
