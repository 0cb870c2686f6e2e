import type { EmailDns, TxtValue } from '../email-dns.ts'
import type { MacroContext } from './spf-macro.ts'
import { expandMacro, finishDomain, parseDomainSpec } from './spf-macro.ts'
import { isQueryableName, isSpfDomain, sameDomain } from './spf-names.ts'
import { parseSpf } from './spf-parse.ts'
import { estimateTxtResponseBytes, selectSpf } from './spf-select.ts'
import type { SpfMechanism, SpfQualifier, SpfSyntaxError, SpfTerm } from './spf-types.ts'
import { LOOKUP_MECHANISMS, QUALIFIER_RESULT } from './spf-types.ts'

// The whole include/redirect tree of a record, independent of any client IP: what
// a receiver may have to fetch in the worst case (nothing matches until the end).
// Every record is fetched (siblings in parallel), every a/mx/exists target without
// macros resolved, so void lookups and MX fan-out are known; lookups are then
// numbered in evaluation order, so the answer shows which term is the 11th. The
// tree is returned whole even when it breaks the limits — that is when it is most
// needed — but bounded in depth and size against hostile records.

export type NodeStatus =
  | 'ok'
  | 'none'
  | 'multiple'
  | 'syntax_error'
  | 'dns_error'
  | 'loop'
  | 'invalid_name'
  | 'unexpanded_macro'
  | 'not_followed'

export interface SpfTermView {
  raw: string
  type: 'mechanism' | 'modifier'
  name: string
  qualifier: SpfQualifier | null
  result_on_match: 'pass' | 'fail' | 'softfail' | 'neutral' | null
  /** domain-spec, network or modifier value as written. */
  value: string | null
  cidr4: number | null
  cidr6: number | null
  macros: boolean
  /** Costs a DNS lookup counted against the limit of 10. */
  counts_lookup: boolean
  /** Its place in the count when nothing matches earlier; over 10 is a permerror. */
  lookup_number: number | null
  /** The lookup found nothing (a void lookup); null when not resolved. */
  void: boolean | null
  /** a, mx: the addresses the target has now. */
  addresses: string[] | null
  /** mx: the exchanges, by preference. */
  mx_hosts: string[] | null
  /** Never evaluated: after "all", or a redirect in a record with "all". */
  ignored: boolean
  note: string | null
}

export interface SpfNode {
  id: number
  parent_id: number | null
  depth: number
  domain: string
  via: 'root' | 'include' | 'redirect'
  via_term: string | null
  status: NodeStatus
  error: string | null
  record: string | null
  strings: string[]
  /** Other v=spf1 records at the name (status multiple). */
  conflicting: string[]
  terms: SpfTermView[]
  syntax_errors: SpfSyntaxError[]
  /** Lookup-counting terms of this record (include, a, mx, ptr, exists, redirect). */
  lookups: number
  void_lookups: number
  /** This record and everything below it. */
  subtree_lookups: number
  /** Estimated size of the TXT answer at this name (RFC 7208 §3.4 asks for <= 512). */
  response_bytes: number | null
}

export interface SpfTree {
  nodes: SpfNode[]
  /** Lookups in the worst case, over the whole tree. */
  lookups: number
  void_lookups: number
  /** The term that makes the 11th lookup, when there is one ("domain: term"). */
  first_over_limit: string | null
  truncated: boolean
}

export interface TreeOptions {
  /** With a request context, macros are expanded; without, such targets are shown unexpanded. */
  macros?: (domain: string) => MacroContext
  maxDepth?: number
  maxNodes?: number
  lookupLimit?: number
}

interface Built {
  node: SpfNode
  /** Children by the index of the term that leads to them. */
  children: Map<number, Built>
}

const hasMacro = (text: string | null) => text !== null && /%[{%_-]/.test(text)

function termView(term: SpfTerm, ignored: boolean): SpfTermView {
  if (term.kind === 'modifier') {
    return {
      raw: term.raw,
      type: 'modifier',
      name: term.name,
      qualifier: null,
      result_on_match: null,
      value: term.value,
      cidr4: null,
      cidr6: null,
      macros: hasMacro(term.value),
      counts_lookup: term.name === 'redirect' && !ignored,
      lookup_number: null,
      void: null,
      addresses: null,
      mx_hosts: null,
      ignored,
      note: null,
    }
  }
  return {
    raw: term.raw,
    type: 'mechanism',
    name: term.name,
    qualifier: term.qualifier,
    result_on_match: QUALIFIER_RESULT[term.qualifier],
    value: term.domainSpec ?? term.network,
    cidr4: term.cidr4,
    cidr6: term.cidr6,
    macros: hasMacro(term.domainSpec),
    counts_lookup: LOOKUP_MECHANISMS.has(term.name) && !ignored,
    lookup_number: null,
    void: null,
    addresses: null,
    mx_hosts: null,
    ignored,
    note: null,
  }
}

function emptyNode(domain: string, via: SpfNode['via'], viaTerm: string | null, depth: number, status: NodeStatus, error: string | null): SpfNode {
  return {
    id: 0,
    parent_id: null,
    depth,
    domain,
    via,
    via_term: viaTerm,
    status,
    error,
    record: null,
    strings: [],
    conflicting: [],
    terms: [],
    syntax_errors: [],
    lookups: 0,
    void_lookups: 0,
    subtree_lookups: 0,
    response_bytes: null,
  }
}

// a/mx/exists targets resolved per tree: a real tree needs a few dozen at most (the
// limit of 10 lookups), a hostile record could ask for thousands.
const RESOLVE_BUDGET = 60

class TreeBuilder {
  private created = 0
  private resolved = 0
  truncated = false

  constructor(
    private readonly dns: EmailDns,
    private readonly options: Required<Pick<TreeOptions, 'maxDepth' | 'maxNodes'>> & TreeOptions,
  ) {}

  /** A target name, or why it cannot be followed. */
  private async target(spec: string, domain: string): Promise<{ name: string } | { status: NodeStatus; error: string }> {
    if (!hasMacro(spec)) return { name: finishDomain(spec) }
    if (!this.options.macros) return { status: 'unexpanded_macro', error: `"${spec}" uses macros; give ip (and sender) to expand them` }
    const parsed = parseDomainSpec(spec)
    if (!parsed.ok) return { status: 'invalid_name', error: parsed.error }
    return { name: finishDomain(await expandMacro(parsed.parts, this.options.macros(domain))) }
  }

  private async resolveTerm(view: SpfTermView, term: SpfMechanism, domain: string): Promise<void> {
    if (term.name !== 'ptr' && ++this.resolved > RESOLVE_BUDGET) {
      view.note = `not resolved: this check resolves at most ${RESOLVE_BUDGET} a/mx/exists targets per tree`
      this.truncated = true
      return
    }
    const where = await this.target(term.domainSpec ?? domain, domain)
    if (!('name' in where)) {
      view.note = where.error
      return
    }
    const name = where.name
    if (!isQueryableName(name)) {
      view.note = `"${name}" is not a valid domain name`
      view.void = true
      return
    }
    if (term.name === 'a') {
      const [a, aaaa] = await Promise.all([this.dns.a(name), this.dns.aaaa(name)])
      if (a.status === 'error' && aaaa.status === 'error') {
        view.note = `lookup failed: ${a.error ?? 'DNS error'}`
        return
      }
      view.addresses = [...a.records, ...aaaa.records]
      view.void = view.addresses.length === 0
      if (view.void) view.note = `${name} has no A or AAAA records`
    } else if (term.name === 'mx') {
      const mx = await this.dns.mx(name)
      if (mx.status === 'error') {
        view.note = `MX lookup failed: ${mx.error ?? 'DNS error'}`
        return
      }
      const hosts = [...mx.records].sort((x, y) => x.preference - y.preference).map((r) => r.exchange.replace(/\.$/, ''))
      view.mx_hosts = hosts
      view.void = hosts.length === 0
      if (view.void) view.note = `${name} has no MX records`
      if (hosts.length > 10) view.note = `${hosts.length} MX records; SPF evaluates at most 10 (permerror)`
      const usable = hosts.filter((h) => h !== '' && isQueryableName(h)).slice(0, 10)
      const found = await Promise.all(usable.map((h) => Promise.all([this.dns.a(h), this.dns.aaaa(h)])))
      view.addresses = found.flatMap(([a, aaaa]) => [...a.records, ...aaaa.records])
    } else if (term.name === 'exists') {
      const a = await this.dns.a(name)
      if (a.status === 'error') {
        view.note = `lookup failed: ${a.error ?? 'DNS error'}`
        return
      }
      view.void = a.records.length === 0
    } else if (term.name === 'ptr') {
      view.note = 'depends on the client IP; deprecated (RFC 7208 §5.5)'
    }
  }

  async build(domain: string, via: SpfNode['via'], viaTerm: string | null, ancestors: readonly string[]): Promise<Built> {
    const depth = ancestors.length
    const leaf = (status: NodeStatus, error: string | null): Built => ({ node: emptyNode(domain, via, viaTerm, depth, status, error), children: new Map() })
    if (ancestors.some((a) => sameDomain(a, domain))) return leaf('loop', `${domain} is already being evaluated above (${[...ancestors, domain].join(' -> ')})`)
    if (depth > this.options.maxDepth || this.created >= this.options.maxNodes) {
      this.truncated = true
      return leaf('not_followed', `not followed: the tree is limited to ${this.options.maxNodes} records and depth ${this.options.maxDepth}`)
    }
    if (!isSpfDomain(domain)) return leaf('invalid_name', `"${domain}" is not a valid domain name`)
    this.created++
    const lookup = await this.dns.txt(domain)
    const selection = selectSpf(lookup)
    if (selection.status === 'error') return leaf('dns_error', `TXT lookup failed: ${selection.error}`)
    const built = leaf('ok', null)
    const node = built.node
    node.response_bytes = estimateTxtResponseBytes(domain, selection.txt)
    if (selection.status === 'none') {
      node.status = 'none'
      node.error = selection.nxdomain ? `${domain} does not exist (NXDOMAIN)` : `${domain} has no SPF record`
      return built
    }
    if (selection.status === 'multiple') {
      node.status = 'multiple'
      node.error = `${selection.records.length} SPF records; receivers treat this as a permerror`
      node.record = selection.records[0]!.text
      node.strings = selection.records[0]!.strings
      node.conflicting = selection.records.slice(1).map((r: TxtValue) => r.text)
    } else {
      node.record = selection.record.text
      node.strings = selection.record.strings
    }
    const parsed = parseSpf(node.record!)
    node.syntax_errors = parsed.errors
    if (parsed.errors.length > 0 && node.status === 'ok') {
      node.status = 'syntax_error'
      node.error = parsed.errors.map((e) => (e.term ? `"${e.term}": ${e.message}` : e.message)).join('; ')
    }
    const allAt = parsed.terms.findIndex((t) => t.kind === 'mechanism' && t.name === 'all')
    node.terms = parsed.terms.map((t, i) => termView(t, (allAt >= 0 && i > allAt && t.kind === 'mechanism') || (allAt >= 0 && t.kind === 'modifier' && t.name === 'redirect')))
    const work: Array<Promise<unknown>> = []
    parsed.terms.forEach((term, i) => {
      const view = node.terms[i]!
      if (view.ignored) return
      if (term.kind === 'mechanism' && (term.name === 'a' || term.name === 'mx' || term.name === 'exists' || term.name === 'ptr')) {
        work.push(this.resolveTerm(view, term, domain))
      }
      const follows = (term.kind === 'mechanism' && term.name === 'include') || (term.kind === 'modifier' && term.name === 'redirect')
      if (!follows) return
      const spec = term.kind === 'mechanism' ? term.domainSpec! : term.value
      const kind = term.kind === 'mechanism' ? 'include' : 'redirect'
      work.push(
        this.target(spec, domain).then(async (where) => {
          const child =
            'name' in where
              ? await this.build(where.name, kind, term.raw, [...ancestors, domain])
              : { node: emptyNode(spec, kind, term.raw, depth + 1, where.status, where.error), children: new Map<number, Built>() }
          built.children.set(i, child)
        }),
      )
    })
    await Promise.all(work)
    return built
  }
}

/** Numbers lookups in evaluation order (terms in order, an include's record where it stands, redirect last). */
function number(built: Built, state: { count: number; voids: number; firstOver: string | null }, limit: number): number {
  const node = built.node
  let subtree = 0
  let redirect: Built | undefined
  let redirectView: SpfTermView | undefined
  node.terms.forEach((view, i) => {
    if (!view.counts_lookup) return
    if (view.type === 'modifier') {
      redirect = built.children.get(i)
      redirectView = view
      return
    }
    state.count++
    view.lookup_number = state.count
    if (state.count === limit + 1) state.firstOver = `${node.domain}: ${view.raw}`
    node.lookups++
    if (view.void) node.void_lookups++
    const child = built.children.get(i)
    if (child) subtree += number(child, state, limit)
  })
  if (redirectView) {
    state.count++
    redirectView.lookup_number = state.count
    if (state.count === limit + 1) state.firstOver = `${node.domain}: ${redirectView.raw}`
    node.lookups++
    if (redirect) subtree += number(redirect, state, limit)
  }
  state.voids += node.void_lookups
  node.subtree_lookups = node.lookups + subtree
  return node.subtree_lookups
}

function flatten(built: Built, parent: number | null, out: SpfNode[]): void {
  built.node.id = out.length
  built.node.parent_id = parent
  out.push(built.node)
  const order = [...built.children.entries()].sort(([a], [b]) => a - b)
  // A redirect is evaluated after every mechanism: list it last, whatever its position.
  const isRedirect = (b: Built) => b.node.via === 'redirect'
  for (const [, child] of [...order.filter(([, c]) => !isRedirect(c)), ...order.filter(([, c]) => isRedirect(c))]) flatten(child, built.node.id, out)
}

export async function buildSpfTree(dns: EmailDns, domain: string, options: TreeOptions = {}): Promise<SpfTree> {
  const limit = options.lookupLimit ?? 10
  const builder = new TreeBuilder(dns, { maxDepth: 12, maxNodes: 100, ...options })
  const root = await builder.build(domain.replace(/\.$/, ''), 'root', null, [])
  const state = { count: 0, voids: 0, firstOver: null as string | null }
  number(root, state, limit)
  const nodes: SpfNode[] = []
  flatten(root, null, nodes)
  return { nodes, lookups: state.count, void_lookups: state.voids, first_over_limit: state.firstOver, truncated: builder.truncated }
}
