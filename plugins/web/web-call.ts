import { InputError } from '../../runtime/errors.ts'
import type { Chain } from './web-chain.ts'
import { walkChain } from './web-chain.ts'
import type { WebClient } from './web-client.ts'
import type { StartMode } from './web-start.ts'
import { startUrls } from './web-start.ts'
import type { WebTarget } from '../../registry/web/schemas/web-target.ts'
import { parseWebTarget } from '../../registry/web/schemas/web-target.ts'

// The options every exported web check takes, and the one way they open a site:
// from the target's start URL(s), redirects followed with every hop vetted.

export interface WebCallOptions {
  signal?: AbortSignal
  /** Time for all the requests of one check (default 15 s); hops get what is left. */
  budgetMs?: number
}

export const MAX_HOPS = 10
const HOP_TIMEOUT_MS = 8000
const DEFAULT_BUDGET_MS = 15_000

/** A target as given (text is parsed like the endpoints' host parameter). */
export function toTarget(host: string | WebTarget): WebTarget {
  if (typeof host !== 'string') return host
  const parsed = parseWebTarget(host)
  if (!parsed.ok) throw new InputError(`Invalid host: ${parsed.reason}`, { param: 'host', value: host })
  return parsed.target
}

export function openSite(
  client: WebClient,
  target: WebTarget,
  mode: StartMode,
  o: WebCallOptions & { maxBytes: number; maxHops?: number; path?: string; headers?: Record<string, string> },
): Promise<Chain> {
  return walkChain(client, startUrls(target, mode, o.path), {
    maxHops: o.maxHops ?? MAX_HOPS,
    maxBytes: o.maxBytes,
    budgetMs: o.budgetMs ?? DEFAULT_BUDGET_MS,
    hopTimeoutMs: HOP_TIMEOUT_MS,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.headers ? { headers: o.headers } : {}),
  })
}

/** The budget a resolver gives a check: most of the request deadline, so a slow chain is reported, not a 504. */
export function budgetFor(requestTimeoutMs: number): number {
  return Math.max(1000, Math.floor(requestTimeoutMs * 0.8))
}
