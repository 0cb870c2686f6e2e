import { H3 } from 'h3'
import type { H3Config, H3Event, H3Route, MatchedRoute } from 'h3'

// h3's app with the route matches of recent GET paths kept. For a path with a
// parameter (/api/dns/a/{domain}) rou3 splits the path into segments and walks
// its tree on every request: ~1-1.7 µs of a DNS cache hit (bench/RESULTS.md,
// "Goals' run on a fast box"), where the same popular name is asked again and
// again. A static path is one property lookup in rou3, but in a table of 86
// paths (a dictionary-mode object: %HasFastProperties is false; the key is
// internalized first) it cost twice the floor's two-route table in CPU profiles
// of /api/uuid, after a miss in the map here: kept too, it is one Map lookup. Routing is a function of the method
// and the path alone (the routes are all added before the first request), so
// the match of a path seen lately is the match it gets again. Kept: GET matches
// but the catch-all's, for paths of up to RECENT_ROUTE_PATH_CHARS,
// RECENT_ROUTES of them, oldest out first: a client sending endless distinct
// paths costs one Map insert and delete per request and what is kept stays
// bounded.

export const RECENT_ROUTES = 512
export const RECENT_ROUTE_PATH_CHARS = 256

export class RecentRoutesH3 extends H3 {
  readonly #recent = new Map<string, MatchedRoute<H3Route>>()
  /** The route that answers any path (the 404): never kept, every unknown path would take a slot. */
  readonly #catchAll: string | undefined

  constructor(config: H3Config, catchAll?: string) {
    super(config)
    this.#catchAll = catchAll
  }

  override '~findRoute'(event: H3Event): MatchedRoute<H3Route> | void {
    if (event.req.method !== 'GET') return super['~findRoute'](event)
    const path = event.url.pathname
    const kept = this.keptMatch(path)
    if (kept !== undefined) return kept
    const match = super['~findRoute'](event)
    if (match && path.length <= RECENT_ROUTE_PATH_CHARS && match.data.route !== this.#catchAll) {
      if (this.#recent.size >= RECENT_ROUTES) this.#recent.delete(this.#recent.keys().next().value!)
      this.#recent.set(path, match.params === undefined ? { data: match.data } : { data: match.data, params: { ...match.params } })
    }
    return match
  }

  /** The match kept for a GET of `path` (canonical, as h3's event has it), or undefined when none is kept. */
  keptMatch(path: string): MatchedRoute<H3Route> | undefined {
    const kept = this.#recent.get(path)
    if (kept === undefined) return undefined
    // A static match has no params and h3 only reads it: handed out as it is.
    // Otherwise each request gets params of its own (h3 puts them on event.context).
    return kept.params === undefined ? kept : { data: kept.data, params: { ...kept.params } }
  }

  /** Paths whose match is kept now (tests). */
  get recentPaths(): number {
    return this.#recent.size
  }
}
