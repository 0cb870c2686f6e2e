import { getDomain } from 'tldts'
import type { z } from 'zod'
import dnssecEndpoint from '../../registry/dns/dnssec.ts'
import lookupEndpoint from '../../registry/dns/lookup.ts'
import ageEndpoint from '../../registry/domain/age.ts'
import delegationEndpoint from '../../registry/domain/delegation.ts'
import emailDaneEndpoint from '../../registry/email/dane.ts'
import registrarEndpoint from '../../registry/domain/registrar.ts'
import dependenciesEndpoint from '../../registry/domain/dependencies.ts'
import issuanceEndpoint from '../../registry/domain/issuance.ts'
import networksEndpoint from '../../registry/email/networks.ts'
import healthEndpoint from '../../registry/email/health.ts'
import analyzeEndpoint from '../../registry/tls/analyze.ts'
import securityHeadersEndpoint from '../../registry/web/security-headers.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import { UpstreamError } from '../../runtime/errors.ts'
import type { AreaAnswer, AreaSkip } from './areas/answer.ts'
import type { DnsLookup } from './areas/dns.ts'
import { addressless, dnsAnswer } from './areas/dns.ts'
import { delegationAnswer } from './areas/delegation.ts'
import { dnssecAnswer } from './areas/dnssec.ts'
import { emailAnswer } from './areas/email.ts'
import { issuanceAnswer } from './areas/issuance.ts'
import { networkAnswer } from './areas/network.ts'
import type { RegistrationFacts } from './areas/registration.ts'
import { registrationAnswer, registrationFacts, unregisteredAnswer } from './areas/registration.ts'
import { tlsAnswer } from './areas/tls.ts'
import { webAnswer } from './areas/web.ts'
import type { Area } from '../../registry/flagship/schemas/report-findings.ts'
import { countBySeverity, mergeFindings } from './findings.ts'
import type { ReportData } from '../../registry/flagship/schemas/report-data.ts'
import type { Ask, AreaResult } from './run-area.ts'
import { runArea } from './run-area.ts'
import { gradeOf, overallScore } from './scoring.ts'
import { WEIGHTS } from '../../registry/flagship/schemas/report-scale.ts'

// /api/report/{domain}: the other endpoints' answers composed. Every area asks
// its endpoint through ctx.invoke (their cache, their coalescing) under its own
// deadline. DNS goes first only where it decides whether an area applies: a name
// that does not exist has no mail, TLS or web server to check, a name without an
// address no TLS or web server. DNSSEC and registration start at once.

type Report = z.input<typeof ReportData>

/** Each area's own deadline; all of them end before the request's own (BUDGET_SHARE of it). */
export const AREA_DEADLINE_MS: Readonly<Record<Area, number>> = { dns: 5_000, delegation: 10_000, dnssec: 8_000, email: 15_000, tls: 20_000, web: 10_000, registration: 8_000, network: 10_000, issuance: 15_000 }
const BUDGET_SHARE = 0.8
export const TOP_FINDINGS = 25
/** A report with a failed or stale part is kept briefly: the part may answer next time. */
export const PARTIAL_TTL = 30

/** RDAP has no service for the TLD (a 404 before any registry was asked): registration cannot be checked. */
const noRdapService = (error: unknown): error is Error =>
  error instanceof Error && 'status' in error && error.status === 404 && typeof (error as { details?: { url?: unknown } }).details?.url !== 'string'
const notRegistered = (error: unknown): boolean => error instanceof Error && 'status' in error && error.status === 404 && !noRdapService(error)

export async function domainReport(domain: string, port: number, ctx: ResolverContext): Promise<Report> {
  // Deadlines are durations, measured on the monotonic clock (a date clock may stand still).
  const budgetEnd = performance.now() + ctx.config.requestTimeoutMs * BUDGET_SHARE
  const deadlineOf = (area: Area) => Math.min(performance.now() + AREA_DEADLINE_MS[area], budgetEnd)
  const host = port === 443 ? domain : `${domain}:${port}`
  // RDAP knows registrations, so the registrable name under the ICANN suffixes:
  // www.example.com is example.com's, and a github.io site is github.io's.
  const registrable = getDomain(domain) ?? domain

  let lookup: DnsLookup | undefined
  const dns = runArea('dns', ctx, deadlineOf('dns'), async (ask) => {
    lookup = await ask(lookupEndpoint, { domain })
    return dnsAnswer(lookup)
  })
  /** An area that needs the name to exist (and, for servers, to have an address); run when DNS has answered. */
  const after = async (area: Area, needsAddress: boolean, work: (ask: Ask) => Promise<AreaAnswer | AreaSkip>): Promise<AreaResult> => {
    await dns
    const skip = lookup === undefined ? null : !lookup.exists ? `${domain} does not exist in DNS (${lookup.rcode}).` : needsAddress && addressless(lookup) ? `${domain} has no A or AAAA record: there is no server to check.` : null
    return runArea(area, ctx, deadlineOf(area), skip === null ? work : async () => ({ skipped: skip }))
  }

  let facts: RegistrationFacts | null = null
  const results = await Promise.all([
    dns,
    runArea('dnssec', ctx, deadlineOf('dnssec'), async (ask) => dnssecAnswer(await ask(dnssecEndpoint, { domain }))),
    // The zone a registrant runs: www.example.com is served by example.com's name servers.
    after('delegation', false, async (ask) => delegationAnswer(await ask(delegationEndpoint, { domain: registrable }))),
    after('email', false, async (ask) => {
      const [health, networks, dane] = await Promise.allSettled([ask(healthEndpoint, { domain }), ask(networksEndpoint, { domain }), ask(emailDaneEndpoint, { domain })])
      if (health.status === 'rejected') throw health.reason
      // The sender networks or DANE failing on their own leave the area standing on
      // health (their sources say failed): without the networks the score is health's
      // alone, without DANE nothing is taken off.
      return emailAnswer(
        health.value,
        networks.status === 'fulfilled' ? networks.value : null,
        dane.status === 'fulfilled' ? dane.value : { error: dane.reason instanceof Error ? dane.reason.message : String(dane.reason) },
      )
    }),
    after('tls', true, async (ask) => tlsAnswer(await ask(analyzeEndpoint, { host }))),
    after('web', true, async (ask) => webAnswer(await ask(securityHeadersEndpoint, { host }))),
    runArea('registration', ctx, deadlineOf('registration'), async (ask) => {
      const [age, registrar] = await Promise.allSettled([ask(ageEndpoint, { domain: registrable }), ask(registrarEndpoint, { domain: registrable })])
      if (age.status === 'rejected' && registrar.status === 'rejected') {
        if (noRdapService(age.reason)) return { skipped: age.reason.message }
        if (notRegistered(age.reason)) return unregisteredAnswer(registrable)
        throw age.reason
      }
      facts = registrationFacts(age.status === 'fulfilled' ? age.value : null, registrar.status === 'fulfilled' ? registrar.value : null)
      return registrationAnswer(facts)
    }),
    // Name servers and mail exchangers exist without an address of the name itself; CAA and CT too.
    after('network', false, async (ask) => networkAnswer(await ask(dependenciesEndpoint, { domain }))),
    after('issuance', false, async (ask) => issuanceAnswer(await ask(issuanceEndpoint, port === 443 ? { domain } : { domain, port: String(port) }))),
  ])

  if (results.every((r) => r.status !== 'ok')) {
    const first = results.find((r) => r.status === 'failed')
    throw new UpstreamError(
      first?.error?.upstream ?? 'report',
      'unavailable',
      `No part of the report for ${domain} could be answered${first ? ` (${first.area}: ${first.error!.message})` : ''}; details.areas has every part's error.`,
      { areas: Object.fromEntries(results.map((r) => [r.area, r.error ?? { code: 'skipped', message: r.reason }])) },
    )
  }

  const sources = results.flatMap((r) => r.sources).filter((s) => s.status === 'ok')
  ctx.lowerTtl(Math.min(...sources.map((s) => s.ttl ?? 0)))
  // A failed area, a part of an answering area that failed (email's sender networks or DANE), or a stale part.
  const failedPart = results.some((r) => r.status === 'failed' || r.sources.some((s) => s.status === 'failed'))
  if (failedPart || sources.some((s) => s.stale)) ctx.lowerTtl(PARTIAL_TTL)

  const all = mergeFindings(results.map((r) => r.findings))
  const score = overallScore(results)
  return {
    domain,
    port,
    score,
    grade: score === null ? null : gradeOf(score),
    complete: results.every((r) => r.status !== 'failed'),
    areas: Object.fromEntries(
      results.map((r) => [
        r.area,
        { status: r.status, score: r.score, grade: r.grade, weight: WEIGHTS[r.area], summary: r.summary, reason: r.reason, error: r.error, findings: r.findings.length, sources: r.sources },
      ]),
    ) as Report['areas'],
    findings: all.slice(0, TOP_FINDINGS),
    findings_total: all.length,
    severity_counts: countBySeverity(all),
    registration: facts,
  }
}
