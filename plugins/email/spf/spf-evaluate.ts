import type { EmailDns, Lookup } from '../email-dns.ts'
import type { ClientIp } from './spf-ip.ts'
import { dotFormat, ipMatches, parseClientIp, readableIp, reverseName, sameIp } from './spf-ip.ts'
import type { MacroContext } from './spf-macro.ts'
import { expandMacro, finishDomain, parseDomainSpec, parseMacroString } from './spf-macro.ts'
import { isAtOrBelow, isQueryableName, isSpfDomain, sameDomain } from './spf-names.ts'
import { parseSpf } from './spf-parse.ts'
import { selectSpf } from './spf-select.ts'
import type { SpfMechanism, SpfModifier, SpfResult } from './spf-types.ts'
import { LOOKUP_MECHANISMS, QUALIFIER_RESULT } from './spf-types.ts'

// check_host() (RFC 7208 §4-§6). Lookups are counted as terms are reached, not up
// front: a record whose 11th lookup comes after a match passes (the suite's
// include-at-limit), one that needs it fails. DNS errors are temperror for
// include/a/mx/exists and a non-match for ptr (§5.5); the explanation is fetched
// after the result is known and counts against nothing (§6.2).

export interface SpfCheckRequest {
  /** The SMTP client's address. */
  ip: string
  /** The identity: "MAIL FROM", or "postmaster@<helo>" for a null sender. */
  sender: string
  /** HELO/EHLO name, for %{h}. */
  helo: string
  /** %{r}: the checking host's name. */
  receiver?: string
  /** %{t}: the clock's now, in seconds since the epoch. */
  now: number
}

export interface SpfTraceEntry {
  /** 0 for the checked domain, +1 per include or redirect. */
  depth: number
  domain: string
  term: string
  outcome: 'match' | 'no_match' | 'error'
  detail: string | null
}

export interface SpfEvaluation {
  result: SpfResult
  /** The exp= text for a fail, expanded; null when there is none (receivers then use their default). */
  explanation: string | null
  /** The term that decided, and in whose record. */
  matched: { domain: string; term: string } | null
  /** Why the result is none, permerror or temperror. */
  reason: string | null
  dns_lookups: number
  void_lookups: number
  trace: SpfTraceEntry[]
}

export interface SpfLimits {
  lookups: number
  voids: number
  /** Address lookups per "mx" and names per "ptr" (§4.6.4). */
  perMechanism: number
  /** Trace entries kept (the answer stays bounded on pathological records). */
  trace: number
}

export const DEFAULT_LIMITS: SpfLimits = { lookups: 10, voids: 2, perMechanism: 10, trace: 250 }

class Abort extends Error {
  constructor(
    readonly result: 'permerror' | 'temperror',
    message: string,
  ) {
    super(message)
  }
}

interface Outcome {
  result: SpfResult
  explanation: string | null
  matched: { domain: string; term: string } | null
  reason: string | null
}

/** Names whose forward lookup gives back the client's address (at most `max` PTR names tried). */
export async function validatedNames(dns: EmailDns, ip: ClientIp, max: number): Promise<string[]> {
  const ptr = await dns.ptr(reverseName(ip))
  if (ptr.status !== 'answer') return []
  const checked = await Promise.all(
    ptr.records.slice(0, max).map(async (name) => {
      if (!isQueryableName(name)) return null
      const forward = ip.version === 4 ? await dns.a(name) : await dns.aaaa(name)
      return forward.status === 'answer' && forward.records.some((a) => sameIp(ip, a)) ? name.replace(/\.$/, '') : null
    }),
  )
  return checked.filter((n): n is string => n !== null)
}

/** Macro contexts for one request, per <domain>; %{p} is looked up once, on first use (RFC 7208 §7.3). */
export function macroContexts(dns: EmailDns, ip: ClientIp, request: SpfCheckRequest, limits: SpfLimits = DEFAULT_LIMITS): (domain: string) => MacroContext {
  const { local, domain: senderDomain } = splitSender(request.sender)
  let names: Promise<string[]> | undefined
  const now = request.now
  return (domain) => ({
    sender: `${local}@${senderDomain}`,
    local,
    senderDomain,
    domain,
    ipDotted: dotFormat(ip),
    ipReadable: readableIp(ip),
    ipVersion: ip.version,
    helo: request.helo,
    receiver: request.receiver ?? 'unknown',
    now,
    validatedName: async () => {
      const all = await (names ??= validatedNames(dns, ip, limits.perMechanism))
      return all.find((n) => sameDomain(n, domain)) ?? all.find((n) => isAtOrBelow(n, domain)) ?? all[0] ?? 'unknown'
    },
  })
}

function splitSender(sender: string): { local: string; domain: string } {
  const at = sender.lastIndexOf('@')
  if (at < 0) return { local: 'postmaster', domain: sender }
  return { local: sender.slice(0, at) || 'postmaster', domain: sender.slice(at + 1) }
}

class Evaluation {
  lookups = 0
  voids = 0
  readonly trace: SpfTraceEntry[] = []
  private contexts: ((domain: string) => MacroContext) | undefined

  constructor(
    private readonly dns: EmailDns,
    private readonly ip: ClientIp,
    private readonly request: SpfCheckRequest,
    private readonly limits: SpfLimits,
  ) {}

  private note(entry: SpfTraceEntry): void {
    if (this.trace.length < this.limits.trace) this.trace.push(entry)
  }

  private count(): void {
    this.lookups++
    if (this.lookups > this.limits.lookups) throw new Abort('permerror', `more than ${this.limits.lookups} DNS-querying terms (RFC 7208 §4.6.4)`)
  }

  private void(lookup: Lookup<unknown>): void {
    if (lookup.status !== 'nodata' && lookup.status !== 'nxdomain') return
    this.voids++
    if (this.voids > this.limits.voids) throw new Abort('permerror', `more than ${this.limits.voids} lookups returned no records (void lookup limit, RFC 7208 §4.6.4)`)
  }

  private macroContext(domain: string): MacroContext {
    return (this.contexts ??= macroContexts(this.dns, this.ip, this.request, this.limits))(domain)
  }

  private validatedNames(): Promise<string[]> {
    return validatedNames(this.dns, this.ip, this.limits.perMechanism)
  }

  private addresses(name: string): Promise<Lookup<string>> {
    return this.ip.version === 4 ? this.dns.a(name) : this.dns.aaaa(name)
  }

  private async target(spec: string | null, domain: string): Promise<string> {
    if (spec === null) return domain
    const parsed = parseDomainSpec(spec)
    // The record was parsed before evaluation, so this cannot fail; keep the type narrow.
    if (!parsed.ok) throw new Abort('permerror', parsed.error)
    return finishDomain(await expandMacro(parsed.parts, this.macroContext(domain)))
  }

  private matchAddress(m: SpfMechanism, addresses: readonly string[]): boolean {
    const bits = this.ip.version === 4 ? (m.cidr4 ?? 32) : (m.cidr6 ?? 128)
    return addresses.some((a) => ipMatches(this.ip, a, bits))
  }

  private async mechanism(m: SpfMechanism, domain: string, depth: number): Promise<{ match: boolean; detail: string | null }> {
    switch (m.name) {
      case 'all':
        return { match: true, detail: null }
      case 'ip4':
      case 'ip6': {
        const bits = m.name === 'ip4' ? (m.cidr4 ?? 32) : (m.cidr6 ?? 128)
        const family = m.name === 'ip4' ? 4 : 6
        return { match: this.ip.version === family && ipMatches(this.ip, m.network!, bits), detail: null }
      }
      case 'include': {
        const target = await this.target(m.domainSpec, domain)
        const inner = await this.checkHost(target, depth + 1, true)
        if (inner.result === 'temperror') throw new Abort('temperror', `include:${target}: ${inner.reason ?? 'temporary DNS error'}`)
        if (inner.result === 'permerror') throw new Abort('permerror', `include:${target}: ${inner.reason ?? 'permanent error'}`)
        if (inner.result === 'none') throw new Abort('permerror', `include:${target} has no SPF record`)
        return { match: inner.result === 'pass', detail: `include:${target} -> ${inner.result}` }
      }
      case 'a': {
        const target = await this.target(m.domainSpec, domain)
        if (!isQueryableName(target)) return { match: false, detail: `"${target}" is not a valid domain name` }
        const found = await this.addresses(target)
        if (found.status === 'error') throw new Abort('temperror', `a:${target}: ${found.error ?? 'DNS error'}`)
        this.void(found)
        return { match: this.matchAddress(m, found.records), detail: found.records.join(' ') || `${target} has no address` }
      }
      case 'mx': {
        const target = await this.target(m.domainSpec, domain)
        if (!isQueryableName(target)) return { match: false, detail: `"${target}" is not a valid domain name` }
        const mx = await this.dns.mx(target)
        if (mx.status === 'error') throw new Abort('temperror', `mx:${target}: ${mx.error ?? 'DNS error'}`)
        this.void(mx)
        if (mx.records.length > this.limits.perMechanism) {
          throw new Abort('permerror', `mx:${target} has ${mx.records.length} MX records; SPF allows at most ${this.limits.perMechanism} (RFC 7208 §4.6.4)`)
        }
        const hosts = mx.records.map((r) => r.exchange).filter((h) => h !== '' && h !== '.' && isQueryableName(h))
        for (const host of hosts) {
          const found = await this.addresses(host)
          if (found.status === 'error') throw new Abort('temperror', `mx:${target}: address of ${host}: ${found.error ?? 'DNS error'}`)
          if (this.matchAddress(m, found.records)) return { match: true, detail: `via ${host}` }
        }
        return { match: false, detail: hosts.length ? `MX hosts: ${hosts.join(' ')}` : `${target} has no MX hosts` }
      }
      case 'ptr': {
        const target = await this.target(m.domainSpec, domain)
        const ptr = await this.dns.ptr(reverseName(this.ip))
        // A PTR failure is not the domain owner's fault: no match, never an error (§5.5).
        if (ptr.status === 'error') return { match: false, detail: `PTR lookup failed: ${ptr.error ?? 'DNS error'}` }
        this.void(ptr)
        const names = await this.validatedNames()
        const hit = names.find((n) => isAtOrBelow(n, target))
        return { match: hit !== undefined, detail: hit ? `validated ${hit}` : `validated names: ${names.join(' ') || 'none'}` }
      }
      case 'exists': {
        const target = await this.target(m.domainSpec, domain)
        if (!isQueryableName(target)) return { match: false, detail: `"${target}" is not a valid domain name` }
        // Always an A query, whatever the client's family (§5.7).
        const found = await this.dns.a(target)
        if (found.status === 'error') throw new Abort('temperror', `exists:${target}: ${found.error ?? 'DNS error'}`)
        this.void(found)
        return { match: found.records.length > 0, detail: target }
      }
    }
  }

  private async explain(exp: SpfModifier | null, domain: string): Promise<string | null> {
    if (!exp) return null
    // Any trouble with the explanation means "as if there were no exp=" (§6.2).
    try {
      const target = await this.target(exp.value, domain)
      if (!isQueryableName(target)) return null
      const txt = await this.dns.txt(target)
      if (txt.status !== 'answer' || txt.records.length !== 1) return null
      const text = txt.records[0]!.text
      if (/[^\x20-\x7e]/.test(text)) return null
      const parsed = parseMacroString(text, { explain: true })
      if (!parsed.ok) return null
      return await expandMacro(parsed.parts, this.macroContext(domain))
    } catch {
      return null
    }
  }

  async checkHost(domain: string, depth: number, inInclude: boolean): Promise<Outcome> {
    if (!isSpfDomain(domain)) return { result: 'none', explanation: null, matched: null, reason: `"${domain}" is not a valid domain name` }
    const selection = selectSpf(await this.dns.txt(domain))
    if (selection.status === 'error') throw new Abort('temperror', `TXT lookup of ${domain} failed: ${selection.error}`)
    if (selection.status === 'none') return { result: 'none', explanation: null, matched: null, reason: `${domain} has no SPF record` }
    if (selection.status === 'multiple') throw new Abort('permerror', `${domain} has ${selection.records.length} SPF records; there must be exactly one`)
    const parsed = parseSpf(selection.record.text)
    if (parsed.errors.length > 0) {
      const e = parsed.errors[0]!
      throw new Abort('permerror', `syntax error in the SPF record of ${domain}${e.term ? ` at "${e.term}"` : ''}: ${e.message}`)
    }
    for (const m of parsed.mechanisms) {
      if (LOOKUP_MECHANISMS.has(m.name)) this.count()
      let outcome: { match: boolean; detail: string | null }
      try {
        outcome = await this.mechanism(m, domain, depth)
      } catch (error) {
        this.note({ depth, domain, term: m.raw, outcome: 'error', detail: (error as Error).message })
        throw error
      }
      this.note({ depth, domain, term: m.raw, outcome: outcome.match ? 'match' : 'no_match', detail: outcome.detail })
      if (!outcome.match) continue
      const result = QUALIFIER_RESULT[m.qualifier]
      const explanation = result === 'fail' && !inInclude ? await this.explain(parsed.exp, domain) : null
      return { result, explanation, matched: { domain, term: m.raw }, reason: null }
    }
    if (parsed.redirect) {
      this.count()
      const target = await this.target(parsed.redirect.value, domain)
      this.note({ depth, domain, term: parsed.redirect.raw, outcome: 'match', detail: `redirect to ${target}` })
      // The redirect target's check_host() replaces this one, its exp= included (§6.1, §6.2).
      const inner = await this.checkHost(target, depth + 1, inInclude)
      if (inner.result === 'none') throw new Abort('permerror', `redirect=${target}: ${inner.reason ?? 'no SPF record'}`)
      return inner
    }
    return { result: 'neutral', explanation: null, matched: null, reason: null }
  }
}

/** check_host(ip, domain, sender), with the RFC 7208 limits. Never throws for DNS trouble: that is temperror. */
export async function checkHost(dns: EmailDns, domain: string, request: SpfCheckRequest, limits: SpfLimits = DEFAULT_LIMITS): Promise<SpfEvaluation> {
  const ip = parseClientIp(request.ip)
  if (!ip) throw new TypeError(`"${request.ip}" is not an IP address`)
  const run = new Evaluation(dns, ip, request, limits)
  let outcome: Outcome
  try {
    outcome = await run.checkHost(domain.replace(/\.$/, ''), 0, false)
  } catch (error) {
    if (!(error instanceof Abort)) throw error
    outcome = { result: error.result, explanation: null, matched: null, reason: error.message }
  }
  return { ...outcome, dns_lookups: Math.min(run.lookups, limits.lookups + 1), void_lookups: run.voids, trace: run.trace }
}
