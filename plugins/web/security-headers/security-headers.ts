import type { z } from 'zod'
import type { WebCallOptions } from '../web-call.ts'
import { openSite, toTarget } from '../web-call.ts'
import type { WebClient } from '../web-client.ts'
import type { WebTarget } from '../../../registry/web/schemas/web-target.ts'
import { targetLabel } from '../target-url.ts'
import { gradeSecurityHeaders } from './grade-headers.ts'
import type { SecurityHeadersData } from '../../../registry/web/schemas/security-headers-data.ts'

// /api/web/security-headers: the page a browser ends up on (redirects followed,
// every hop vetted) graded on its security headers. Only the final response is
// graded; the chain is shown so an http -> https upgrade (or its absence) is seen.

export type SecurityHeaders = z.infer<typeof SecurityHeadersData>

const READ_LIMIT = 64 * 1024

export async function securityHeaders(client: WebClient, host: string | WebTarget, o: WebCallOptions = {}): Promise<SecurityHeaders> {
  const target = toTarget(host)
  const chain = await openSite(client, target, 'secure-first', {
    ...o,
    maxBytes: READ_LIMIT,
    headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'accept-language': 'en' },
  })
  const res = chain.final!
  const graded = gradeSecurityHeaders({ url: res.url, headers: res.headers, tls: res.tls })
  const lastOk = chain.hops.findLastIndex((h) => h.status !== null)
  return {
    host: targetLabel(target),
    url: chain.hops[0]!.url,
    final_url: res.url,
    fallback: chain.fallback,
    status: res.status,
    ...graded,
    redirects: chain.hops.filter((_, i) => i !== lastOk),
    stopped: chain.stop,
  }
}
