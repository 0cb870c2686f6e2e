import type { EmailDns } from '../email-dns.ts'
import { sortFindings } from '../findings.ts'
import type { SpfDataShape } from '../../../registry/email/schemas/spf-data.ts'
import { checkHost, macroContexts } from './spf-evaluate.ts'
import { parseClientIp } from './spf-ip.ts'
import { effectiveAll, lintSpfTree } from './spf-lint.ts'
import type { SpfCheckParams } from './spf-sender.ts'
import { spfCheckRequest } from './spf-sender.ts'
import type { SpfTree } from './spf-tree.ts'
import { buildSpfTree } from './spf-tree.ts'

/**
 * ?ip=, ?sender=, ?helo=: see spfCheckRequest (sender or helo without ip is an
 * InputError); `now` (seconds, the service's clock) is what the %{t} macro expands to.
 */
export type SpfInspectOptions = SpfCheckParams & { now: number }

const LIMIT = 10
const VOID_LIMIT = 2

/** What every receiver gets whatever the client: the worst outcome the tree guarantees. */
function verdictOf(tree: SpfTree): { verdict: SpfDataShape['verdict']; reason: string | null } {
  const [root, ...rest] = tree.nodes
  if (!root || root.status === 'none') return { verdict: 'none', reason: root?.error ?? 'no SPF record' }
  if (root.status === 'dns_error') return { verdict: 'temperror', reason: root.error }
  const broken = tree.nodes.find((n) => ['multiple', 'syntax_error', 'loop', 'invalid_name'].includes(n.status)) ?? rest.find((n) => n.status === 'none')
  if (broken) return { verdict: 'permerror', reason: `${broken.domain}: ${broken.error ?? broken.status}` }
  const mx = tree.nodes.flatMap((n) => n.terms.map((t) => ({ n, t }))).find(({ t }) => t.mx_hosts !== null && t.mx_hosts.length > 10)
  if (mx) return { verdict: 'permerror', reason: `${mx.n.domain}: "${mx.t.raw}" has more than 10 MX records` }
  if (tree.lookups > LIMIT) return { verdict: 'permerror', reason: `${tree.lookups} DNS lookups; the limit is ${LIMIT} (11th: ${tree.first_over_limit})` }
  if (tree.void_lookups > VOID_LIMIT) return { verdict: 'permerror', reason: `${tree.void_lookups} void lookups; the limit is ${VOID_LIMIT}` }
  const dnsError = rest.find((n) => n.status === 'dns_error')
  if (dnsError) return { verdict: 'temperror', reason: `${dnsError.domain}: ${dnsError.error}` }
  return { verdict: 'valid', reason: null }
}

/** The SPF answer for a domain: record, tree, limits, findings, and check_host() when an IP is given. */
export async function inspectSpf(dns: EmailDns, domain: string, options: SpfInspectOptions): Promise<SpfDataShape> {
  const check = spfCheckRequest(domain, options)
  const request = check && { ...check, now: options.now }
  const client = request ? parseClientIp(request.ip) : null
  const [tree, evaluation] = await Promise.all([
    buildSpfTree(dns, domain, client && request ? { macros: macroContexts(dns, client, request) } : {}),
    request ? checkHost(dns, domain, request) : Promise.resolve(null),
  ])
  const root = tree.nodes[0]!
  const { verdict, reason } = verdictOf(tree)
  const status = root.status === 'none' || root.status === 'invalid_name' ? 'none' : root.status === 'dns_error' ? 'dns_error' : root.status === 'multiple' ? 'multiple' : 'found'
  return {
    domain,
    status,
    record: root.record,
    verdict,
    verdict_reason: reason,
    all: effectiveAll(tree.nodes)?.raw ?? null,
    lookups: {
      count: tree.lookups,
      limit: LIMIT,
      void_count: tree.void_lookups,
      void_limit: VOID_LIMIT,
      over_limit: tree.lookups > LIMIT,
      first_over_limit: tree.first_over_limit,
    },
    tree: tree.nodes,
    evaluation: evaluation && request ? { ip: request.ip, identity: request.identity, sender: request.sender, helo: request.helo, ...evaluation } : null,
    findings: sortFindings(lintSpfTree(tree)),
  }
}
