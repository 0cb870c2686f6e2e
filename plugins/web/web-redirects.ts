import type { WebCallOptions } from './web-call.ts'
import { MAX_HOPS, openSite, toTarget } from './web-call.ts'
import type { WebClient } from './web-client.ts'
import type { Redirects } from '../../registry/web/schemas/redirects-data.ts'
import type { WebTarget } from '../../registry/web/schemas/web-target.ts'
import { targetLabel } from './target-url.ts'

// /api/web/redirects: the chain hop by hop, as typed into a browser (a bare name
// starts at http://, so the upgrade to https shows). At most 10 requests; a URL
// seen before is a loop; a hop whose address the guard refuses is the last hop,
// marked blocked, and was never connected to.

export async function redirectChain(client: WebClient, host: string | WebTarget, o: WebCallOptions = {}): Promise<Redirects> {
  const target = toTarget(host)
  const chain = await openSite(client, target, 'as-typed', { ...o, maxBytes: 16 * 1024 })
  const hops = chain.hops
  const answered = hops.filter((h) => h.status !== null)
  const last = answered.at(-1)!
  const start = hops[0]!.url
  return {
    host: targetLabel(target),
    start_url: start,
    final_url: last.url,
    final_status: last.status,
    fallback: chain.fallback,
    hops,
    hop_count: hops.length,
    redirect_count: hops.filter((h) => h.next_url !== null).length,
    stopped: chain.stop,
    stop_message: chain.stop_message,
    https_upgrade: hops.some((h) => h.upgrade_to_https) && last.url.startsWith('https:') && (start.startsWith('http:') || chain.fallback !== null),
    https_downgrade: hops.some((h) => h.downgrade_to_http),
    cross_host: hops.some((h) => h.cross_host),
    max_hops: MAX_HOPS,
    total_ms: Math.round(hops.reduce((sum, h) => sum + (h.time_ms ?? 0), 0) * 10) / 10,
  }
}
