import type { GuardedNetwork } from '../../../runtime/net/guarded-network.ts'
import { TargetBlockedError } from '../../../runtime/net/target-blocked-error.ts'
import type { EmailDns } from '../email-dns.ts'
import type { Finding } from '../../../registry/email/schemas/findings.ts'
import { finding, sortFindings } from '../findings.ts'
import { parseTagList, tagValue } from '../tag-list.ts'
import type { MtaStsShape } from '../../../registry/email/schemas/mta-sts-data.ts'
import { parseStsPolicy, patternMatches } from './mta-sts-policy.ts'

// MTA-STS (RFC 8461): the TXT record at _mta-sts.<domain> announces a policy, the
// policy is fetched over HTTPS from mta-sts.<domain> (port 443, a certificate valid
// for that name, no redirects, text/plain), and every MX host must match one of
// its mx patterns, or enforcing senders stop delivering to it.

export interface MtaStsOptions {
  signal: AbortSignal
  /** Deadline of the policy fetch (DNS, connection, TLS and the whole body). */
  timeoutMs: number
}

type Policy = NonNullable<MtaStsShape['policy']>

/** Why a policy could not be had; each is its own finding, since each has its own fix. */
type FetchFailure = 'blocked' | 'certificate' | 'unreachable' | 'redirect' | 'http_status'

// The guarded network reports a failed HTTPS request as an UpstreamError whose
// message carries Node's TLS error text; these are the texts of certificate
// verification failures (name mismatch, untrusted chain, expiry).
const CERTIFICATE_ERROR = /certificate|Hostname\/IP does not match|unable to verify|self[- ]signed/i

async function fetchPolicy(network: GuardedNetwork, domain: string, options: MtaStsOptions): Promise<{ policy: Policy; failure: FetchFailure | null }> {
  const url = `https://mta-sts.${domain}/.well-known/mta-sts.txt`
  const empty: Policy = { url, fetched: false, http_status: null, content_type: null, error: null, text: null, version: null, mode: null, max_age: null, mx: [], problems: [] }
  let res
  try {
    // RFC 8461 §3.3: policies are small (SHOULD be under 64 KiB); anything bigger is refused.
    // The request never follows redirects, and verifies the certificate for mta-sts.<domain>, as senders do.
    // A host the user's domain names: no shared circuit breaker (probe), each check sees it as it is now.
    res = await network.request(url, { timeoutMs: options.timeoutMs, signal: options.signal, maxBytes: 64 * 1024, upstream: 'mta-sts', probe: true })
  } catch (error) {
    const message = (error as Error).message
    const failure = error instanceof TargetBlockedError ? 'blocked' : CERTIFICATE_ERROR.test(message) ? 'certificate' : 'unreachable'
    return { policy: { ...empty, error: message }, failure }
  }
  const contentType = typeof res.headers['content-type'] === 'string' ? res.headers['content-type'] : null
  const base = { ...empty, fetched: true, http_status: res.status, content_type: contentType }
  if (res.status >= 300 && res.status < 400) {
    return { policy: { ...base, error: `HTTP ${res.status} redirect to ${String(res.headers.location ?? '?')}; senders do not follow redirects (RFC 8461 §3.3)` }, failure: 'redirect' }
  }
  if (res.status !== 200) return { policy: { ...base, error: `HTTP ${res.status}` }, failure: 'http_status' }
  const text = res.body.toString('utf8')
  return { policy: { ...base, text, ...parseStsPolicy(text) }, failure: null }
}

const FAILURE_FINDING = {
  blocked: 'mta_sts.policy_blocked',
  certificate: 'mta_sts.policy_certificate',
  unreachable: 'mta_sts.policy_unreachable',
  redirect: 'mta_sts.policy_redirect',
  http_status: 'mta_sts.policy_http_error',
} as const

const FAILURE_FIX: Record<FetchFailure, (domain: string) => string> = {
  blocked: (d) => `Point mta-sts.${d} at a public address: senders on the internet cannot reach a private one.`,
  certificate: (d) => `Serve mta-sts.${d} with a certificate from a public CA that names mta-sts.${d}, with its intermediates.`,
  unreachable: (d) => `Serve the policy over HTTPS on port 443 of mta-sts.${d}.`,
  redirect: (d) => `Serve the policy itself at https://mta-sts.${d}/.well-known/mta-sts.txt with status 200; senders do not follow redirects.`,
  http_status: (d) => `Serve the policy at https://mta-sts.${d}/.well-known/mta-sts.txt with status 200.`,
}

function lint(domain: string, data: Omit<MtaStsShape, 'findings'>, mxHosts: readonly string[], failure: FetchFailure | null): Finding[] {
  const out: Finding[] = []
  const { record, policy } = data
  if (record.status === 'none' && (!policy || !policy.fetched)) {
    out.push(finding('mta_sts.missing', 'info', `${domain} publishes no MTA-STS policy: senders cannot require TLS, so an attacker on the path can strip STARTTLS.`, `Publish a policy at https://mta-sts.${domain}/.well-known/mta-sts.txt (start with mode: testing) and a TXT record "v=STSv1; id=<date>" at _mta-sts.${domain}.`))
    return out
  }
  if (record.status === 'dns_error') out.push(finding('mta_sts.dns_error', 'warning', `_mta-sts.${domain} could not be read: ${record.error}.`, null))
  if (record.status === 'multiple') out.push(finding('mta_sts.multiple_records', 'error', `_mta-sts.${domain} has several STSv1 records; senders then ignore MTA-STS (RFC 8461 §3.1).`, 'Keep exactly one record.'))
  if (record.status === 'invalid') out.push(finding('mta_sts.record_invalid', 'error', `_mta-sts.${domain}: ${record.error}; senders ignore MTA-STS.`, 'Publish "v=STSv1; id=<1-32 letters or digits>".'))
  if (record.status === 'none' && policy?.fetched) {
    out.push(finding('mta_sts.policy_without_record', 'warning', `A policy is served at ${policy.url}, but there is no TXT record at _mta-sts.${domain}, so senders never fetch it.`, `Publish "v=STSv1; id=<date>" at _mta-sts.${domain}.`))
  }
  if (!policy) return out
  const announced = record.status === 'found'
  if (policy.error) {
    const kind = failure ?? (policy.fetched ? 'http_status' : 'unreachable')
    const effect = announced ? ' Senders that have no cached policy get none, and MTA-STS does not protect the domain.' : ''
    out.push(finding(FAILURE_FINDING[kind], announced ? 'error' : 'warning', `The MTA-STS policy at ${policy.url} could not be fetched: ${policy.error.replace(/\.$/, '')}.${effect}`, FAILURE_FIX[kind](domain)))
    return out
  }
  if (policy.content_type !== null && !/^text\/plain(?:\s*;|$)/i.test(policy.content_type)) {
    out.push(finding('mta_sts.policy_content_type', 'warning', `The policy is served as "${policy.content_type}"; RFC 8461 §3.3 requires text/plain.`, 'Serve it with Content-Type: text/plain.'))
  }
  if (policy.problems.length) out.push(finding('mta_sts.policy_invalid', 'error', `The MTA-STS policy is invalid: ${policy.problems.join('; ')}.`, 'Fix the policy file: version: STSv1, mode, mx lines, max_age.'))
  if (policy.mode === 'testing') out.push(finding('mta_sts.mode_testing', 'info', 'The policy is in testing mode: senders report failures (TLS-RPT) but still deliver.', 'Switch to mode: enforce once TLS-RPT reports are clean.'))
  if (policy.mode === 'none') out.push(finding('mta_sts.mode_none', 'warning', 'mode: none withdraws the policy.', null))
  if (policy.max_age !== null && policy.max_age < 86_400 && policy.mode !== 'none') {
    out.push(finding('mta_sts.max_age_short', 'warning', `max_age is ${policy.max_age} s; a short cache lets an attacker who blocks the policy fetch downgrade senders quickly.`, 'Use a max_age of at least one week (604800), up to a year.'))
  }
  if (policy.mode === 'enforce' || policy.mode === 'testing') {
    for (const c of data.mx_coverage.filter((c) => c.pattern === null)) {
      out.push(
        finding(
          'mta_sts.mx_not_covered',
          policy.mode === 'enforce' ? 'critical' : 'warning',
          `MX host ${c.host} matches no mx line of the policy (${policy.mx.join(', ') || 'none'}); ${policy.mode === 'enforce' ? 'enforcing senders will not deliver to it' : 'senders report it as a failure'}.`,
          `Add "mx: ${c.host}" (or a matching "*." pattern) to the policy and change the id in the TXT record.`,
        ),
      )
    }
    const unused = policy.mx.filter((p) => !mxHosts.some((h) => patternMatches(p, h)))
    if (unused.length && mxHosts.length) out.push(finding('mta_sts.pattern_unused', 'info', `Policy mx lines ${unused.join(', ')} match none of the MX hosts.`, 'Remove stale mx lines.'))
  }
  return out
}

export async function inspectMtaSts(dns: EmailDns, network: GuardedNetwork, domain: string, mxHosts: readonly string[], options: MtaStsOptions): Promise<MtaStsShape> {
  const name = `_mta-sts.${domain}`
  const txt = await dns.txt(name)
  let record: MtaStsShape['record'] = { name, status: 'none', text: null, id: null, error: null }
  if (txt.status === 'error') record = { ...record, status: 'dns_error', error: txt.error ?? 'DNS error' }
  else {
    const sts = txt.records.filter((r) => /^v=STSv1\s*(?:;|$)/.test(r.text))
    if (sts.length > 1) record = { ...record, status: 'multiple', text: sts.map((r) => r.text).join(' | ') }
    else if (sts.length === 1) {
      const text = sts[0]!.text
      const id = tagValue(parseTagList(text), 'id') ?? null
      record = id && /^[A-Za-z0-9]{1,32}$/.test(id) ? { ...record, status: 'found', text, id } : { ...record, status: 'invalid', text, id, error: id ? `id=${id} must be 1-32 letters or digits` : 'the id= tag is missing' }
    }
  }
  // Without a record, fetch only if the policy host exists: a policy nobody announces is worth reporting.
  let policy: MtaStsShape['policy'] = null
  let failure: FetchFailure | null = null
  if (record.status !== 'none' || (await dns.a(`mta-sts.${domain}`)).status === 'answer') ({ policy, failure } = await fetchPolicy(network, domain, options))
  const patterns = policy?.mx ?? []
  const mx_coverage = policy?.fetched && !policy.error ? mxHosts.map((host) => ({ host, pattern: patterns.find((p) => patternMatches(p, host)) ?? null })) : []
  const partial = { record, policy, mx_coverage }
  return { ...partial, findings: sortFindings(lint(domain, partial, mxHosts, failure)) }
}
