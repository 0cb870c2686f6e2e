import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FINDING_CATALOG } from '../../registry/email/schemas/finding-catalog.ts'
import { SEVERITIES } from '../../registry/email/schemas/findings.ts'

// Finding ids are published API. The catalog lists them, finding() accepts only
// catalog ids (a type error otherwise), and these tests pin the list itself, check
// that the code names exactly the catalog's ids, and that docs/email.md (the README's email reference) documents each.

const ROOT = join(import.meta.dirname, '..', '..')
const PLUGIN = join(ROOT, 'plugins', 'email')
const ID = /'((?:spf|dmarc|dkim|mx|tls|mta_sts|tls_rpt|bimi)\.[a-z0-9_]+)'/g

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []))
}

const catalogIds = Object.keys(FINDING_CATALOG).sort()

describe('email finding ids', () => {
  it('are exactly these (renaming, removing or adding one must change this list on purpose)', () => {
    expect(catalogIds).toEqual([
      'bimi.certificate_url',
      'bimi.declined',
      'bimi.dmarc_not_enforced',
      'bimi.dns_error',
      'bimi.logo_url',
      'bimi.missing',
      'bimi.multiple_records',
      'bimi.no_certificate',
      'dkim.dns_error',
      'dkim.ed25519_only',
      'dkim.invalid_record',
      'dkim.none_found',
      'dkim.revoked',
      'dkim.sha1_only',
      'dkim.short_key',
      'dkim.testing',
      'dkim.weak_key',
      'dmarc.deprecated_tag',
      'dmarc.dns_error',
      'dmarc.duplicate_tag',
      'dmarc.fo_without_ruf',
      'dmarc.inherited',
      'dmarc.invalid_value',
      'dmarc.missing',
      'dmarc.multiple_records',
      'dmarc.no_rua',
      'dmarc.np_weaker',
      'dmarc.p_missing',
      'dmarc.pct_partial',
      'dmarc.policy_none',
      'dmarc.policy_quarantine',
      'dmarc.report_auth_dns_error',
      'dmarc.report_unauthorized',
      'dmarc.report_uri_invalid',
      'dmarc.report_uri_scheme',
      'dmarc.ruf',
      'dmarc.subdomain_policy_weaker',
      'dmarc.syntax_error',
      'dmarc.testing',
      'dmarc.unknown_tag',
      'dmarc.version',
      'dmarc.version_not_first',
      'mta_sts.dns_error',
      'mta_sts.enforce_tls_broken',
      'mta_sts.max_age_short',
      'mta_sts.missing',
      'mta_sts.mode_none',
      'mta_sts.mode_testing',
      'mta_sts.multiple_records',
      'mta_sts.mx_not_covered',
      'mta_sts.pattern_unused',
      'mta_sts.policy_blocked',
      'mta_sts.policy_certificate',
      'mta_sts.policy_content_type',
      'mta_sts.policy_http_error',
      'mta_sts.policy_invalid',
      'mta_sts.policy_redirect',
      'mta_sts.policy_unreachable',
      'mta_sts.policy_without_record',
      'mta_sts.record_invalid',
      'mx.cname',
      'mx.dns_error',
      'mx.fcrdns',
      'mx.host_dns_error',
      'mx.implicit',
      'mx.ip_literal',
      'mx.no_address',
      'mx.no_ptr',
      'mx.none',
      'mx.null',
      'mx.null_mixed',
      'mx.private_address',
      'mx.single',
      'mx.unreachable',
      'spf.broad_network',
      'spf.dns_error',
      'spf.duplicate_include',
      'spf.include_dns_error',
      'spf.include_multiple_records',
      'spf.include_no_record',
      'spf.include_pass_all',
      'spf.invalid_target',
      'spf.lookups_near_limit',
      'spf.loop',
      'spf.macro_target',
      'spf.missing',
      'spf.multiple_records',
      'spf.mx_too_many',
      'spf.network_host_bits',
      'spf.neutral_all',
      'spf.no_all',
      'spf.pass_all',
      'spf.ptr',
      'spf.redirect_ignored',
      'spf.redirect_no_record',
      'spf.response_over_512',
      'spf.syntax_error',
      'spf.terms_after_all',
      'spf.too_many_lookups',
      'spf.too_many_void_lookups',
      'spf.tree_truncated',
      'spf.unknown_modifier',
      'spf.void_lookup',
      'spf.whole_internet',
      'tls.blocked',
      'tls.certificate_expired',
      'tls.certificate_expiring',
      'tls.handshake_failed',
      'tls.name_mismatch',
      'tls.no_starttls',
      'tls.ok',
      'tls.old_protocol',
      'tls.smtp_error',
      'tls.unreachable',
      'tls.untrusted_certificate',
      'tls.weak_key',
      'tls_rpt.dns_error',
      'tls_rpt.invalid',
      'tls_rpt.missing',
      'tls_rpt.multiple_records',
    ])
  })

  it('the code names exactly the catalog ids: none outside it, none it never emits', () => {
    const named = new Map<string, string>()
    for (const file of sources(PLUGIN).filter((f) => !f.endsWith('finding-catalog.ts'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(ID)) named.set(m[1]!, relative(ROOT, file))
    }
    expect([...named.keys()].filter((id) => !(id in FINDING_CATALOG)).map((id) => `${id} (${named.get(id)})`)).toEqual([])
    expect(catalogIds.filter((id) => !named.has(id))).toEqual([])
  })

  it('every entry has severities and a meaning', () => {
    for (const [id, entry] of Object.entries(FINDING_CATALOG)) {
      expect(entry.severity.length, id).toBeGreaterThan(0)
      for (const s of entry.severity) expect(SEVERITIES, id).toContain(s)
      expect(entry.meaning, id).toMatch(/^\S.*\.$/)
    }
  })

  it('docs/email.md documents every id with its severities, and no other', () => {
    const readme = readFileSync(join(ROOT, 'docs', 'email.md'), 'utf8')
    const rows = [...readme.matchAll(/^\| `((?:spf|dmarc|dkim|mx|tls|mta_sts|tls_rpt|bimi)\.[a-z0-9_]+)` \| ([a-z /]+) \| (.+) \|$/gm)]
    const documented = Object.fromEntries(rows.map((m) => [m[1]!, m[2]!.split(' / ')]))
    expect(Object.keys(documented).sort()).toEqual(catalogIds)
    for (const [id, entry] of Object.entries(FINDING_CATALOG)) expect(documented[id], id).toEqual([...entry.severity])
  })
})
