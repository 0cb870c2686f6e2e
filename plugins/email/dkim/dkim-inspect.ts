import type { EmailDns } from '../email-dns.ts'
import type { Finding } from '../../../registry/email/schemas/findings.ts'
import { dedupeFindings, finding, sortFindings } from '../findings.ts'
import type { DkimDataShape, DkimKeyShape } from '../../../registry/email/schemas/dkim-data.ts'
import { looksLikeDkim, parseDkimRecord } from './dkim-parse.ts'
import { COMMON_SELECTORS } from './dkim-selectors.ts'

function strengthOf(type: string | null, bits: number | null, broken: boolean): DkimKeyShape['strength'] {
  if (broken) return 'broken'
  if (type === 'ed25519') return 'strong'
  if (type !== 'rsa' || bits === null) return 'unknown'
  return bits >= 2048 ? 'strong' : bits >= 1024 ? 'acceptable' : 'weak'
}

async function checkSelector(dns: EmailDns, domain: string, selector: string, source: 'common' | 'requested'): Promise<DkimKeyShape> {
  const name = `${selector}._domainkey.${domain}`
  const base: DkimKeyShape = {
    selector,
    name,
    source,
    status: 'not_found',
    record: null,
    cname: [],
    version: null,
    key_type: null,
    public_key_type: null,
    key_bits: null,
    hash_algorithms: null,
    service_types: [],
    flags: [],
    revoked: false,
    testing: false,
    strength: 'unknown',
    problems: [],
    error: null,
  }
  const lookup = await dns.txt(name)
  base.cname = lookup.chain
  if (lookup.status === 'error') return { ...base, status: 'dns_error', error: lookup.error ?? 'DNS error' }
  const candidates = lookup.records.filter((r) => looksLikeDkim(r.text))
  if (candidates.length === 0) {
    return lookup.records.length ? { ...base, status: 'not_dkim', record: lookup.records[0]!.text } : base
  }
  const text = candidates[0]!.text
  const parsed = parseDkimRecord(text)
  const problems = [...parsed.problems]
  if (candidates.length > 1) problems.push(`${candidates.length} key records at one selector; verifiers may pick either`)
  return {
    ...base,
    status: 'found',
    record: text,
    version: parsed.version,
    key_type: parsed.key_type,
    public_key_type: parsed.key?.type ?? null,
    key_bits: parsed.key?.bits ?? null,
    hash_algorithms: parsed.hash_algorithms,
    service_types: parsed.service_types,
    flags: parsed.flags,
    revoked: parsed.revoked,
    testing: parsed.testing,
    strength: parsed.revoked ? 'unknown' : strengthOf(parsed.key?.type ?? null, parsed.key?.bits ?? null, parsed.key?.error != null || parsed.public_key === null),
    problems,
  }
}

function lintKey(k: DkimKeyShape): Finding[] {
  const out: Finding[] = []
  const at = `${k.selector}._domainkey`
  if (k.status === 'dns_error') return [finding('dkim.dns_error', 'warning', `${at}: lookup failed (${k.error}); verifiers get a temporary error.`, null)]
  if (k.status !== 'found') return []
  if (k.revoked) {
    out.push(finding('dkim.revoked', 'info', `${at} has an empty p=: the key is revoked and mail signed with it fails DKIM.`, 'Remove the record once no mail is signed with this selector.'))
    return out
  }
  if (k.strength === 'weak') {
    out.push(finding('dkim.weak_key', 'critical', `${at} is a ${k.key_bits}-bit RSA key; keys under 1024 bits can be factored and verifiers reject them (RFC 8301).`, 'Generate a 2048-bit RSA key, publish it under a new selector, switch signing to it.'))
  } else if (k.strength === 'acceptable') {
    out.push(finding('dkim.short_key', 'warning', `${at} is a ${k.key_bits}-bit RSA key; 2048 bits is the current recommendation.`, 'Rotate to a 2048-bit RSA key under a new selector.'))
  }
  if (k.testing) out.push(finding('dkim.testing', 'warning', `${at} has t=y (testing): verifiers may treat its signatures as unsigned mail.`, 'Remove t=y once signing works.'))
  if (k.hash_algorithms && !k.hash_algorithms.includes('sha256')) {
    out.push(finding('dkim.sha1_only', 'warning', `${at} allows only ${k.hash_algorithms.join(':')}; SHA-1 signatures must not be trusted (RFC 8301).`, 'Remove h= or set h=sha256.'))
  }
  for (const problem of k.problems) out.push(finding('dkim.invalid_record', 'error', `${at}: ${problem}.`, 'Republish the key record as the signing service gives it.'))
  return out
}

/** Tries the common selectors and the requested ones in parallel; reports keys found and their problems. */
export async function inspectDkim(dns: EmailDns, domain: string, requested: readonly string[] = []): Promise<DkimDataShape> {
  const asked = new Set(requested)
  const selectors = [...requested, ...COMMON_SELECTORS.filter((s) => !asked.has(s))]
  const results = await Promise.all(selectors.map((s) => checkSelector(dns, domain, s, asked.has(s) ? 'requested' : 'common')))
  const keys = results.filter((k) => k.status !== 'not_found' || k.source === 'requested')
  const usable = keys.filter((k) => k.status === 'found' && !k.revoked && k.strength !== 'broken')
  const findings: Finding[] = keys.flatMap(lintKey)
  if (usable.length === 0) {
    findings.push(
      finding(
        'dkim.none_found',
        'warning',
        `No DKIM key found under ${selectors.length} selectors${requested.length ? ' (including the ones asked for)' : ''}. Without DKIM, DMARC rests on SPF alone, which breaks on forwarding.`,
        'Enable DKIM signing at your mail provider and publish its key; if you sign with a custom selector, pass it in ?selectors=.',
      ),
    )
  } else if (usable.every((k) => k.public_key_type === 'ed25519')) {
    findings.push(finding('dkim.ed25519_only', 'warning', 'Only Ed25519 keys were found; many verifiers support RSA only (RFC 8463 recommends signing with both).', 'Also sign with a 2048-bit RSA key.'))
  }
  return { domain, selectors_checked: selectors, found: usable.length, keys, findings: sortFindings(dedupeFindings(findings)) }
}
