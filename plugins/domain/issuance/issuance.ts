import type { z } from 'zod'
import type { ResolverContext } from '../../../runtime/define-plugin.ts'
import a from '../../../registry/dns/a.ts'
import aaaa from '../../../registry/dns/aaaa.ts'
import caa from '../../../registry/dns/caa.ts'
import type { IssuanceData } from '../../../registry/domain/schemas/issuance-data.ts'
import certificate from '../../../registry/tls/certificate.ts'
import transparency from '../../../registry/tls/certificate-transparency.ts'
import { partError } from '../dependencies/part-error.ts'
import { caOf } from './ca-identifiers.ts'
import type { Authorization, CaaRecord, CaaSet } from './caa-set.ts'
import { authorize, caaSet, climb } from './caa-set.ts'
import { issuanceFindings } from './findings.ts'

// /api/domain/issuance: the CAA set that governs the domain (caa-set.ts, each name
// asked through /api/dns/caa), the unexpired certificates CT holds for it
// (/api/certificate-transparency) and the leaf served now (/api/tls/certificate),
// each issuer mapped to its CA (ca-identifiers.ts) and judged against the set; and
// the names of the logged certificates, each asked A and AAAA. Every part is
// asked through ctx.invoke and degrades on its own.

type Data = z.input<typeof IssuanceData>

/** More names than this are listed as skipped: each costs two DNS questions. */
export const MAX_NAMES = 16
const DEGRADED_TTL_S = 60
/** Worst first: an issuer's verdict over its certificates is the lowest of theirs. */
const RANK: Record<Authorization, number> = { not_allowed: 0, unknown: 1, unknown_issuer: 2, unrestricted: 3, no_caa: 4, allowed: 5 }

const settle = <T>(p: Promise<T>) => p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }))
const isWildcardOnly = (domain: string, names: readonly string[]) => !names.includes(domain) && names.some((n) => n.startsWith('*.') && n.slice(2) === domain.slice(domain.indexOf('.') + 1))
const issuerOf = (organization: string | null, common_name: string | null) => {
  const entry = caOf(organization)
  return { organization, common_name, ca: entry?.ca ?? null, caa_identifiers: entry ? [...entry.caa] : [] }
}

export async function domainIssuance(domain: string, port: number, ctx: ResolverContext, budgetMs: number): Promise<Data> {
  const deadlineAt = performance.now() + budgetMs
  const left = () => Math.max(1, Math.round(deadlineAt - performance.now()))
  const errors: Data['errors'] = []
  const skipped: Data['skipped'] = []
  const fail = (part: string, error: unknown) => errors.push(partError(part, error, ctx))
  const host = port === 443 ? domain : `${domain}:${port}`

  const servedP = settle(ctx.invoke(certificate, { host }, { timeoutMs: left() }))
  const ctP = settle(ctx.invoke(transparency, { domain, expired: 'false' }, { timeoutMs: left() }))

  // The climb is sequential by nature: a parent is asked only when the child has no CAA.
  const lookups: Data['caa']['lookups'] = []
  let relevant: { name: string; records: CaaRecord[] } | null = null
  let complete = true
  for (const name of climb(domain)) {
    const answer = await settle(ctx.invoke(caa, { domain: name }, { timeoutMs: left() }))
    if (!answer.ok) {
      lookups.push({ name, status: 'failed', count: 0 })
      fail(`caa ${name}`, answer.error)
      complete = false
      break
    }
    const records = (answer.value.data.records as Array<Record<string, unknown>>)
      .filter((r) => r.type === 'CAA')
      .map((r) => ({ flags: Number(r.flags), tag: String(r.tag), value: String(r.value) }))
    lookups.push({ name, status: answer.value.data.status, count: records.length })
    // SERVFAIL is an answer of the DNS, but not one the set can be read from (§5.4: a CA must not issue).
    if (answer.value.data.status === 'servfail' || answer.value.data.status === 'error') {
      complete = false
      break
    }
    if (records.length > 0) {
      relevant = { name, records }
      break
    }
  }
  const set: CaaSet | null | undefined = !complete ? undefined : relevant ? caaSet(relevant.records) : null

  let served: Data['served'] = null
  const s = await servedP
  if (s.ok) {
    const leaf = s.value.data.leaf
    const names = leaf.sans.dns.map((n) => n.toLowerCase())
    const wildcard = isWildcardOnly(domain, names)
    const issuer = issuerOf(leaf.issuer.organization, leaf.issuer.common_name)
    served = { host: s.value.data.host, port: s.value.data.port, issuer, names, wildcard, not_after: leaf.not_after, authorization: authorize(set, issuer.ca ? issuer.caa_identifiers : null, wildcard) }
  } else fail('served', s.error)

  let logged: Data['logged'] = null
  let ctNames: string[] = []
  const t = await ctP
  if (t.ok) {
    const groups = new Map<string, NonNullable<Data['logged']>['issuers'][number]>()
    for (const c of t.value.data.certificates) {
      const issuer = issuerOf(c.issuer.organization, c.issuer.common_name)
      const key = `${issuer.organization ?? ''}\u0000${issuer.common_name ?? ''}`
      const wildcard = isWildcardOnly(domain, c.names)
      const verdict = authorize(set, issuer.ca ? issuer.caa_identifiers : null, wildcard)
      const g = groups.get(key) ?? { ...issuer, certificates: 0, wildcard_certificates: 0, authorization: 'allowed' as const, example_serials: [] }
      g.certificates += 1
      if (wildcard) g.wildcard_certificates += 1
      if (RANK[verdict] < RANK[g.authorization]) g.authorization = verdict
      if (g.example_serials.length < 3) g.example_serials.push(c.serial_number ?? `crt.sh ${c.crtsh_ids[0]}`)
      groups.set(key, g)
    }
    logged = { certificates: t.value.data.certificates.length, issuers: [...groups.values()].sort((x, y) => y.certificates - x.certificates || (x.organization ?? '').localeCompare(y.organization ?? '') || (x.common_name ?? '').localeCompare(y.common_name ?? '')) }
    // Every name the certificates cover (a wildcard names no host to ask about).
    ctNames = [...new Set(t.value.data.certificates.flatMap((c) => c.names).map((n) => n.toLowerCase()))].filter((n) => !n.startsWith('*.')).sort()
  } else fail('ct', t.error)

  if (ctNames.length > MAX_NAMES) skipped.push({ part: 'names', reason: `${ctNames.length} names in CT; the first ${MAX_NAMES} were asked about: ${ctNames.slice(MAX_NAMES).join(', ')} were not` })
  const names: Data['names'] = await Promise.all(
    ctNames.slice(0, MAX_NAMES).map(async (name) => {
      const [v4, v6] = await Promise.all([settle(ctx.invoke(a, { domain: name }, { timeoutMs: left() })), settle(ctx.invoke(aaaa, { domain: name }, { timeoutMs: left() }))])
      if (!v4.ok) fail(`A ${name}`, v4.error)
      if (!v6.ok) fail(`AAAA ${name}`, v6.error)
      const answers = [v4, v6].flatMap((x) => (x.ok ? [x.value.data] : []))
      const resolves = answers.some((d) => d.records.some((r) => r.type === 'A' || r.type === 'AAAA')) ? true : answers.length === 2 ? false : null
      const statuses = [...new Set(answers.map((d) => d.status))]
      return { name, resolves, status: answers.length === 0 ? 'failed' : statuses.join('/') }
    }),
  )

  const body: Omit<Data, 'findings'> = {
    domain,
    caa: {
      relevant_name: relevant?.name ?? null,
      records: relevant ? relevant.records.map((r) => `${r.flags} ${r.tag} ${JSON.stringify(r.value)}`) : [],
      issue: set ? set.issue : [],
      issuewild: set ? set.issuewild : null,
      complete,
      lookups,
    },
    served,
    logged,
    names,
    errors,
    skipped,
  }
  if (errors.length > 0) ctx.lowerTtl(DEGRADED_TTL_S)
  return { ...body, findings: issuanceFindings(body) }
}
