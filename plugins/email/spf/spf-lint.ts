import ipaddr from 'ipaddr.js'
import type { Finding } from '../../../registry/email/schemas/findings.ts'
import { finding } from '../findings.ts'
import type { SpfNode, SpfTermView, SpfTree } from './spf-tree.ts'

// Findings about an SPF tree. Problems that make receivers answer permerror are
// critical wherever they are (a broken include breaks the sender's SPF too); style
// problems (ptr, ?all, text after all) are reported for the domain's own records —
// the root and its redirect chain — since a third party's include is not the
// domain owner's to edit.

const LIMIT = 10
const VOID_LIMIT = 2

/** The root and the records it redirects to: the policy the domain owner writes. */
function ownChain(nodes: readonly SpfNode[]): SpfNode[] {
  const chain: SpfNode[] = []
  let current: SpfNode | undefined = nodes[0]
  while (current) {
    chain.push(current)
    const id: number = current.id
    current = nodes.find((n) => n.parent_id === id && n.via === 'redirect')
  }
  return chain
}

/** The "all" that ends evaluation for the domain: the root's, or (without one) its redirect target's. */
export function effectiveAll(nodes: readonly SpfNode[]): SpfTermView | null {
  for (const node of ownChain(nodes)) {
    const all = node.terms.find((t) => t.name === 'all' && t.type === 'mechanism')
    if (all) return all
  }
  return null
}

/** Where the string boundaries of a multi-string record fall inside a term. */
function splitHint(node: SpfNode, term: string): string {
  if (node.strings.length < 2 || !node.record || term === '') return ''
  const at = node.record.indexOf(term)
  if (at < 0) return ''
  let offset = 0
  for (let i = 0; i < node.strings.length - 1; i++) {
    offset += node.strings[i]!.length
    if (offset > at && offset < at + term.length) {
      return ` The term spans the boundary between string ${i + 1} and ${i + 2} of the TXT record, which are joined with nothing in between (RFC 7208 §3.3): end string ${i + 1} with a space.`
    }
  }
  return ''
}

function networkFindings(node: SpfNode, term: SpfTermView): Finding[] {
  if ((term.name !== 'ip4' && term.name !== 'ip6') || term.value === null) return []
  const bits = term.name === 'ip4' ? term.cidr4 : term.cidr6
  if (bits === null) return []
  const out: Finding[] = []
  const wide = term.name === 'ip4' ? 16 : 32
  if (bits === 0) {
    out.push(finding('spf.whole_internet', 'critical', `${node.domain}: "${term.raw}" authorizes every ${term.name === 'ip4' ? 'IPv4' : 'IPv6'} address.`, `Replace "${term.raw}" with the networks that really send your mail.`))
  } else if (bits < wide) {
    out.push(finding('spf.broad_network', 'warning', `${node.domain}: "${term.raw}" authorizes a /${bits}, far more addresses than any sender needs.`, 'List the sending hosts or their provider\'s include instead of a whole block.'))
  }
  try {
    const network = ipaddr.parse(term.value)
    const cidr = `${term.value}/${bits}`
    const canonical = network.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(cidr) : ipaddr.IPv6.networkAddressFromCIDR(cidr)
    if (canonical.toString() !== network.toString()) {
      out.push(finding('spf.network_host_bits', 'info', `${node.domain}: "${term.raw}" has host bits set; it means ${canonical.toString()}/${bits}.`, `Write ${term.name}:${canonical.toString()}/${bits} so the record says what it means.`))
    }
  } catch {
    // The parser already rejected anything unparseable.
  }
  return out
}

export function lintSpfTree(tree: SpfTree): Finding[] {
  const out: Finding[] = []
  const nodes = tree.nodes
  const root = nodes[0]!
  const own = new Set(ownChain(nodes).map((n) => n.id))

  if (root.status === 'none') {
    out.push(finding('spf.missing', 'error', `${root.domain} publishes no SPF record, so any server may send mail as it.`, `Publish a TXT record at ${root.domain}: "v=spf1 <your senders> -all" (or "v=spf1 -all" if the domain sends no mail).`))
    return out
  }
  if (root.status === 'dns_error') {
    out.push(finding('spf.dns_error', 'warning', `The SPF record of ${root.domain} could not be read: ${root.error}. Receivers get temperror.`, 'Check that the authoritative name servers answer TXT queries.'))
    return out
  }
  if (root.status === 'multiple') {
    out.push(finding('spf.multiple_records', 'critical', `${root.domain} publishes ${1 + root.conflicting.length} SPF records; receivers answer permerror and SPF fails for all mail.`, 'Merge them into one "v=spf1 ... " TXT record.'))
  }

  for (const node of nodes) {
    const label = node.id === 0 ? node.domain : `${node.domain} (${node.via} from ${nodes[node.parent_id ?? 0]!.domain})`
    for (const e of node.syntax_errors) {
      out.push(finding('spf.syntax_error', 'critical', `${label}: ${e.term ? `"${e.term}": ` : ''}${e.message}. A syntax error anywhere makes the whole check a permerror.${splitHint(node, e.term)}`, e.term ? `Fix or remove "${e.term}".` : 'Remove the offending characters.'))
    }
    if (node.id === 0) {
      // handled above
    } else if (node.status === 'none') {
      const id = node.via === 'redirect' ? 'spf.redirect_no_record' : 'spf.include_no_record'
      out.push(finding(id, 'critical', `${node.via_term} points at ${node.domain}, which has no SPF record: permerror.`, `Remove "${node.via_term}" or fix the name.`))
    } else if (node.status === 'multiple') {
      out.push(finding('spf.include_multiple_records', 'critical', `${node.domain} (${node.via_term}) publishes ${1 + node.conflicting.length} SPF records: permerror.`, `Ask the owner of ${node.domain} to merge them, or stop including it.`))
    } else if (node.status === 'dns_error') {
      out.push(finding('spf.include_dns_error', 'warning', `${node.via_term}: ${node.error}; receivers get temperror while this lasts.`, null))
    } else if (node.status === 'loop') {
      out.push(finding('spf.loop', 'critical', `${node.via_term} creates a loop: ${node.error}. Evaluation runs into the lookup limit: permerror.`, `Remove "${node.via_term}".`))
    } else if (node.status === 'invalid_name') {
      out.push(finding('spf.invalid_target', 'critical', `${node.via_term}: ${node.error}.`, `Fix "${node.via_term}".`))
    } else if (node.status === 'unexpanded_macro') {
      out.push(finding('spf.macro_target', 'info', `${node.via_term} uses macros, so its target depends on the message; it was not followed.`, null))
    }
    for (const term of node.terms) {
      if (term.name === 'mx' && term.mx_hosts && term.mx_hosts.length > 10) {
        out.push(finding('spf.mx_too_many', 'critical', `${label}: "${term.raw}" resolves to ${term.mx_hosts.length} MX records; SPF allows 10, so evaluation reaching it is a permerror.`, 'Use ip4:/ip6: or an include for the mail servers instead of "mx".'))
      }
      if (term.name === 'ptr' && !term.ignored) {
        out.push(finding('spf.ptr', 'warning', `${label}: "${term.raw}" uses the ptr mechanism, which is slow, unreliable and deprecated (RFC 7208 §5.5); some receivers ignore it.`, 'Replace ptr with ip4:/ip6: or a:/include: entries.'))
      }
      out.push(...networkFindings(node, term).map((f) => (own.has(node.id) ? f : { ...f, severity: f.severity === 'critical' ? f.severity : ('info' as const) })))
    }
    // An include matches when the included record passes: an included "+all" authorizes everyone.
    if (node.via === 'include' && node.status === 'ok') {
      const includeTerm = nodes[node.parent_id!]!.terms.find((t) => t.raw === node.via_term)
      const all = node.terms.find((t) => t.name === 'all' && t.type === 'mechanism')
      if (all?.qualifier === '+' && includeTerm?.qualifier === '+') {
        out.push(finding('spf.include_pass_all', 'critical', `${node.via_term} ends in "${all.raw}", so the include matches every sender: anyone may send as ${root.domain}.`, `Remove "${node.via_term}" or have ${node.domain} fixed.`))
      }
    }
  }

  for (const node of nodes.filter((n) => own.has(n.id) && n.status !== 'none')) {
    const allIndex = node.terms.findIndex((t) => t.name === 'all' && t.type === 'mechanism')
    const after = node.terms.filter((t, i) => allIndex >= 0 && i > allIndex && t.type === 'mechanism')
    if (after.length > 0) {
      out.push(finding('spf.terms_after_all', 'warning', `${node.domain}: ${after.map((t) => `"${t.raw}"`).join(', ')} come after "all" and are never evaluated.`, 'Move them before "all", or remove them.'))
    }
    const redirect = node.terms.find((t) => t.type === 'modifier' && t.name === 'redirect')
    if (redirect && allIndex >= 0) {
      out.push(finding('spf.redirect_ignored', 'warning', `${node.domain}: "${redirect.raw}" is ignored because the record has an "all" mechanism (RFC 7208 §6.1).`, 'Remove either the redirect or the all.'))
    }
    for (const term of node.terms.filter((t) => t.type === 'modifier' && t.name !== 'redirect' && t.name !== 'exp')) {
      out.push(finding('spf.unknown_modifier', 'info', `${node.domain}: unknown modifier "${term.raw}" is ignored by receivers.`, null))
    }
    // No check for TXT strings over 255 bytes: a character-string's length is one
    // octet on the wire, so no answer can carry a longer one. A zone-file tool either
    // splits it or refuses the record before it is published.
    if (node.response_bytes !== null && node.response_bytes > 512) {
      out.push(finding('spf.response_over_512', 'warning', `The TXT answer for ${node.domain} is about ${node.response_bytes} bytes; RFC 7208 §3.4 asks that it fit in 512 so receivers without EDNS need no TCP retry.`, 'Shorten the SPF record (or other TXT records at that name), e.g. by moving networks into an include.'))
    }
  }

  const all = effectiveAll(nodes)
  const rootChainOk = ownChain(nodes).every((n) => n.status === 'ok')
  if (rootChainOk) {
    if (!all) {
      out.push(finding('spf.no_all', 'warning', `The SPF record of ${root.domain} has no "all" mechanism: mail from unlisted servers gets "neutral", which protects nothing.`, 'End the record with "-all" (or "~all" while you find every sender).'))
    } else if (all.qualifier === '+') {
      out.push(finding('spf.pass_all', 'critical', `"${all.raw}" authorizes every server on the internet to send as ${root.domain}.`, 'End the record with "-all" (or "~all").'))
    } else if (all.qualifier === '?') {
      out.push(finding('spf.neutral_all', 'warning', `"${all.raw}" gives unlisted servers "neutral": SPF then protects nothing.`, 'End the record with "-all" (or "~all").'))
    }
  }

  if (tree.lookups > LIMIT) {
    out.push(finding('spf.too_many_lookups', 'critical', `The SPF tree needs ${tree.lookups} DNS lookups; receivers stop at ${LIMIT} (RFC 7208 §4.6.4) and answer permerror for mail not matched before "${tree.first_over_limit}".`, 'Flatten includes into ip4:/ip6: ranges, drop unused includes, and replace a/mx/ptr with addresses.'))
  } else if (tree.lookups >= LIMIT - 1) {
    out.push(finding('spf.lookups_near_limit', 'warning', `The SPF tree needs ${tree.lookups} of the ${LIMIT} DNS lookups receivers allow; one more include breaks it.`, 'Flatten an include or replace a/mx with ip4:/ip6: ranges.'))
  }
  if (tree.void_lookups > VOID_LIMIT) {
    out.push(finding('spf.too_many_void_lookups', 'critical', `${tree.void_lookups} terms look up names that have no records; receivers allow ${VOID_LIMIT} such void lookups (RFC 7208 §4.6.4) and answer permerror.`, 'Remove the terms that point at names without records.'))
  }
  for (const node of nodes) {
    for (const term of node.terms.filter((t) => t.void && t.counts_lookup)) {
      out.push(finding('spf.void_lookup', 'warning', `${node.domain}: "${term.raw}" looks up a name with no records (${term.note ?? 'void lookup'}).`, `Remove "${term.raw}" or publish the records it expects.`))
    }
  }

  const seen = new Map<string, number>()
  for (const node of nodes.filter((n) => n.via === 'include' && n.status !== 'loop')) seen.set(node.domain.toLowerCase(), (seen.get(node.domain.toLowerCase()) ?? 0) + 1)
  for (const [domain, count] of seen) {
    if (count > 1) out.push(finding('spf.duplicate_include', 'warning', `${domain} is included ${count} times in the tree; each costs lookups again.`, `Include ${domain} once.`))
  }
  if (tree.truncated) out.push(finding('spf.tree_truncated', 'warning', 'The include tree is larger than this check follows (100 records, depth 12, 60 resolved a/mx/exists targets); parts were not fetched.', null))
  return out
}
