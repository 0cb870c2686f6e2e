import { createHash } from 'node:crypto'
import dnssecEndpoint from '../../registry/dns/dnssec.ts'
import type { z } from 'zod'
import type { DaneCertificate, DaneHost } from '../../registry/dns/schemas/dane-data.ts'
import type { OperatorFinding } from '../../registry/dns/schemas/operator-findings.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import type { TlsaData } from '../../runtime/net/dns/dns-records.ts'
import { cacheTtlOf, resolveRecords } from '../dns/surface.ts'
import { daneFinding, sortFindings } from './findings.ts'
import type { ChainOptions, ChainFailure, ServedChain } from './served-chain.ts'
import { serviceOf, servedChain } from './served-chain.ts'
import type { ServedCertificate } from './tlsa-match.ts'
import { MATCHING_NAMES, SELECTOR_NAMES, USAGE_NAMES, checkRecord, served, spkiOf } from './tlsa-match.ts'

// DANE for one TLS service: the TLSA RRset at _port._proto.host, the service's own
// DNSSEC verdict on it (through /api/dns/dnssec, so it shares that cache), the chain
// the host serves, each record checked against it, a verdict and findings.

export interface HostOptions extends ChainOptions {
  dns: DnsClient
  /** Names a DANE-TA leaf may carry (RFC 7672 §3.2.2: the MX host, and the mail domain). */
  referenceNames: readonly string[]
  /** Fetch the certificate even without TLSA records (one host asked for: its fingerprints help publish them). */
  probeWithoutTlsa: boolean
}

type DnssecVerdict = NonNullable<DaneHost['tlsa']['dnssec']>
const hex = (b: Buffer) => b.toString('hex')

function present(chain: readonly ServedCertificate[]): Array<z.infer<typeof DaneCertificate>> {
  return chain.map((c) => ({
    position: c.position,
    subject: c.x509.subject.replace(/\n/g, ', '),
    issuer: c.x509.issuer.replace(/\n/g, ', '),
    not_before: new Date(c.x509.validFrom).toISOString(),
    not_after: new Date(c.x509.validTo).toISOString(),
    fingerprint_sha256: hex(createHash('sha256').update(c.der).digest()),
    spki_fingerprint_sha256: hex(createHash('sha256').update(spkiOf(c.x509)).digest()),
  }))
}

export async function checkDaneHost(ctx: ResolverContext, host: string, port: number, proto: 'tcp' | 'udp' | 'sctp', options: HostOptions): Promise<DaneHost> {
  const tlsaName = `_${port}._${proto}.${host}`
  const service = serviceOf(port, proto)
  const tlsa = await resolveRecords(options.dns, tlsaName, 'TLSA', ctx.signal)
  ctx.lowerTtl(cacheTtlOf(tlsa))
  const records = tlsa.raw.map((r) => r.data as TlsaData)
  // A validating resolver answers SERVFAIL for a bogus RRset: our own validator says why.
  const validate = records.length > 0 || tlsa.status === 'servfail'
  const probe = records.length > 0 || options.probeWithoutTlsa
  const [verdict, chain] = await Promise.all([
    validate ? ctx.invoke(dnssecEndpoint, { domain: tlsaName, type: 'TLSA' }) : null,
    probe ? servedChain(ctx, host, port, proto, options) : null,
  ])
  if (verdict) ctx.lowerTtl(verdict.ttl)
  const dnssec: DnssecVerdict | null = verdict ? { status: verdict.data.status, reason: verdict.data.reason, message: verdict.data.message } : null
  return judge({ host, port, proto, tlsaName, service, tlsa, records, dnssec, chain, ctx, options })
}

interface Judged {
  host: string
  port: number
  proto: 'tcp' | 'udp' | 'sctp'
  tlsaName: string
  service: DaneHost['service']
  tlsa: { status: DaneHost['tlsa']['status']; rcode: string; ttl: number | null }
  records: TlsaData[]
  dnssec: DnssecVerdict | null
  chain: ServedChain | ChainFailure | null
  ctx: ResolverContext
  options: HostOptions
}

function judge(j: Judged): DaneHost {
  const certs = j.chain?.ok ? served(j.chain.certificates) : null
  const matchCtx = { service: j.service, referenceNames: j.options.referenceNames, nowMs: j.ctx.clock.now(), pkixValid: j.chain?.ok ? j.chain.pkixValid : null }
  const checks = j.records.map((r) => ({
    usage: r.usage,
    usage_name: USAGE_NAMES[r.usage] ?? 'unknown',
    selector: r.selector,
    selector_name: SELECTOR_NAMES[r.selector] ?? 'unknown',
    matching_type: r.matchingType,
    matching_type_name: MATCHING_NAMES[r.matchingType] ?? 'unknown',
    association_data: r.associationData.toLowerCase(),
    ...checkRecord(r, certs, matchCtx),
  }))
  const at = `${j.host}:${j.port}`
  const findings: OperatorFinding[] = []
  const servers = [j.host]
  let verdict: DaneHost['verdict']
  if (j.records.length === 0 && j.tlsa.status !== 'servfail') {
    verdict = 'no_tlsa'
    findings.push(daneFinding('dane.not_used', `${j.tlsaName} has no TLSA records: clients do not use DANE for ${at}.`, null, servers))
  } else if (j.dnssec?.status === 'insecure' || (j.dnssec === null && j.records.length > 0)) {
    verdict = 'not_secure'
    findings.push(
      daneFinding('dane.tlsa_not_secure', `The TLSA records at ${j.tlsaName} are not DNSSEC-secure (${j.dnssec?.message ?? 'not validated'}); DANE clients ignore them.`, 'Sign the zone and publish its DS in the parent, or remove the TLSA records.', servers),
    )
  } else if (j.dnssec?.status === 'bogus') {
    verdict = 'bogus'
    findings.push(daneFinding('dane.tlsa_bogus', `The TLSA RRset at ${j.tlsaName} is bogus: ${j.dnssec.message}`, 'Re-sign the zone (or fix the DS in the parent) so the TLSA RRset validates.', servers))
  } else if (j.dnssec?.status !== 'secure') {
    verdict = 'indeterminate'
    findings.push(daneFinding('dane.tlsa_indeterminate', `The DNSSEC status of ${j.tlsaName} could not be determined: ${j.dnssec?.message ?? 'the lookup failed'}`, null, servers))
  } else if (checks.every((c) => !c.usable)) {
    verdict = 'no_usable_records'
    findings.push(daneFinding('dane.no_usable_records', `None of the ${checks.length} TLSA record(s) at ${j.tlsaName} is usable${j.service === 'smtp' ? ' for SMTP' : ''}: ${checks.map((c) => c.unusable_reason).join('; ')}.`, 'Publish a DANE-EE (3 1 1) record of the server\'s key, or DANE-TA (2 1 1) of its issuer.', servers))
  } else if (!j.chain || !j.chain.ok) {
    const failure = j.chain ?? { ok: false as const, kind: 'not_probed' as const, message: 'not probed' }
    verdict = failure.kind
    if (failure.kind === 'tls_unavailable') findings.push(daneFinding('dane.tls_unavailable', `${failure.message}, yet ${j.tlsaName} has secure TLSA records.`, j.service === 'smtp' ? 'Offer STARTTLS with the certificate the TLSA records name.' : 'Serve TLS with the certificate the TLSA records name.', servers))
    if (failure.kind === 'unreachable') findings.push(daneFinding('dane.unreachable', `${failure.message}: the served certificate was not checked against ${j.tlsaName}.`, null, servers))
  } else if (checks.some((c) => c.matches === true)) {
    verdict = 'valid'
  } else {
    verdict = 'mismatch'
    const why = checks.filter((c) => c.problem).map((c) => `${c.usage} ${c.selector} ${c.matching_type}: ${c.problem}`)
    findings.push(
      daneFinding('dane.no_match', `No usable TLSA record at ${j.tlsaName} authenticates the certificate ${at} serves${why.length ? ` (${why.join('; ')})` : ''}.`, 'Publish a record for the certificate now served (the spki_fingerprint_sha256 of the leaf as 3 1 1), or serve the certificate the records name.', servers),
    )
  }
  if (j.service === 'smtp' && checks.some((c) => c.usage === 0 || c.usage === 1)) {
    findings.push(daneFinding('dane.smtp_pkix_usage', `${j.tlsaName} has TLSA records with usage 0 or 1 (PKIX-TA, PKIX-EE), which SMTP senders ignore (RFC 7672 §3.1.3).`, 'Use usage 3 (DANE-EE) or 2 (DANE-TA) instead.', servers))
  }
  // Usages 0 and 1 on SMTP have their own finding (dane.smtp_pkix_usage).
  const unknown = checks.filter((c) => c.unusable_reason !== null && !(j.service === 'smtp' && c.usage < 2))
  if (unknown.length > 0) {
    findings.push(daneFinding('dane.unusable_record', `${j.tlsaName} has TLSA records no client can use: ${unknown.map((c) => c.unusable_reason).join('; ')}.`, 'Remove them, or correct their usage, selector or matching type.', servers))
  }
  if (verdict === 'valid' && !rolloverReady(checks)) {
    findings.push(
      daneFinding('dane.no_rollover_record', `Every usable TLSA record at ${j.tlsaName} names the current ${checks.some((c) => c.usable && c.selector === 1) ? 'key' : 'certificate'} only: the next one fails DANE until its record is published and the old TTL has passed.`, 'Publish a record for the next key beside the current one (3 1 1 + 3 1 1), or add a DANE-TA record of the issuer (3 1 1 + 2 1 1) (RFC 7671 §8.1).', servers),
    )
  }
  return {
    host: j.host,
    port: j.port,
    proto: j.proto,
    tlsa_name: j.tlsaName,
    service: j.service,
    verdict,
    tlsa: { status: j.tlsa.status, rcode: j.tlsa.rcode, ttl: j.tlsa.ttl, dnssec: j.dnssec, records: checks },
    certificate: j.chain?.ok && certs ? { address: j.chain.address, chain: present(certs), pkix_valid: j.chain.pkixValid } : null,
    probe_error: j.chain && !j.chain.ok ? j.chain.message : null,
    findings: sortFindings(findings),
  }
}

/**
 * A new leaf key keeps matching when a trust-anchor record (usage 0 or 2) names its
 * issuer, or when another usable record does not match today's chain (the next key,
 * published ahead: RFC 7671 §8.1, "current + next").
 */
function rolloverReady(checks: ReadonlyArray<{ usable: boolean; usage: number; matches: boolean | null }>): boolean {
  const usable = checks.filter((c) => c.usable)
  return usable.some((c) => c.usage === 0 || c.usage === 2) || usable.some((c) => c.matches === false)
}
