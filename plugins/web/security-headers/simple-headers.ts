import type { Analysis, Check } from './check.ts'
import type { WebFinding } from '../../../registry/web/schemas/web-findings.ts'

// X-Content-Type-Options and Referrer-Policy: one token each. For Referrer-Policy
// a browser takes the last token it recognizes in the comma list (W3C Referrer
// Policy §11.1), so a fallback list like "no-referrer, strict-origin-when-cross-origin"
// is read the same way here. With none, browsers default to
// strict-origin-when-cross-origin — safe, but not the site's choice.

export function analyzeContentTypeOptions(values: readonly string[]): Analysis<{ value: string | null; valid: boolean }> {
  const header = 'x-content-type-options'
  const value = values[0] ?? null
  if (value === null) {
    return {
      checks: [{ id: 'content_type_options', header, result: 'fail', points: -5, value, reason: 'Missing: browsers may sniff responses into scripts or styles' }],
      findings: [{ code: 'xcto.missing', severity: 'low', message: 'No X-Content-Type-Options: browsers may MIME-sniff responses.', fix: 'Send X-Content-Type-Options: nosniff.' }],
      detail: { value, valid: false },
    }
  }
  if (value.trim().toLowerCase() !== 'nosniff') {
    return {
      checks: [{ id: 'content_type_options', header, result: 'fail', points: -5, value, reason: `"${value}" is not nosniff, so it has no effect` }],
      findings: [{ code: 'xcto.invalid', severity: 'low', message: `X-Content-Type-Options "${value}" is invalid; the only value is nosniff.`, fix: 'Send X-Content-Type-Options: nosniff.' }],
      detail: { value, valid: false },
    }
  }
  return { checks: [{ id: 'content_type_options', header, result: 'pass', points: 0, value, reason: 'nosniff' }], findings: [], detail: { value, valid: true } }
}

const POLICIES = new Set([
  'no-referrer',
  'no-referrer-when-downgrade',
  'origin',
  'origin-when-cross-origin',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
])

export function analyzeReferrerPolicy(values: readonly string[]): Analysis<{ value: string | null; effective: string | null }> {
  const header = 'referrer-policy'
  const value = values.length ? values.join(', ') : null
  const tokens = values.flatMap((v) => v.split(',')).map((t) => t.trim().toLowerCase())
  const effective = tokens.filter((t) => POLICIES.has(t)).at(-1) ?? null
  const detail = { value, effective }
  const result = (check: Omit<Check, 'id' | 'header' | 'value'>, findings: WebFinding[] = []): Analysis<typeof detail> => ({
    checks: [{ id: 'referrer_policy', header, value, ...check }],
    findings,
    detail,
  })
  if (value === null) {
    return result({ result: 'warn', points: -5, reason: 'Missing: the browser default (strict-origin-when-cross-origin) applies' }, [
      { code: 'referrer.missing', severity: 'low', message: 'No Referrer-Policy: the site relies on the browser default.', fix: 'Send Referrer-Policy: strict-origin-when-cross-origin (or stricter).' },
    ])
  }
  if (effective === null) {
    return result({ result: 'warn', points: -5, reason: `No recognized policy in "${value}"` }, [
      { code: 'referrer.invalid', severity: 'low', message: `Referrer-Policy "${value}" has no valid policy; browsers fall back to their default.`, fix: 'Use a policy such as strict-origin-when-cross-origin.' },
    ])
  }
  if (effective === 'unsafe-url') {
    return result({ result: 'fail', points: -10, reason: 'unsafe-url sends the full URL (path and query) everywhere, even to http sites' }, [
      { code: 'referrer.unsafe_url', severity: 'medium', message: 'Referrer-Policy unsafe-url leaks full URLs (paths, query strings, tokens) to every site, also over plain http.', fix: 'Use strict-origin-when-cross-origin.' },
    ])
  }
  if (effective === 'no-referrer-when-downgrade') {
    return result({ result: 'warn', points: -5, reason: 'no-referrer-when-downgrade sends the full URL to every other https site' }, [
      { code: 'referrer.full_url_cross_origin', severity: 'low', message: 'Referrer-Policy no-referrer-when-downgrade sends full URLs to other sites.', fix: 'Use strict-origin-when-cross-origin.' },
    ])
  }
  if (effective === 'origin' || effective === 'origin-when-cross-origin') {
    return result({ result: 'info', points: 0, reason: `${effective} also sends the origin when leaving https for http` })
  }
  return result({ result: 'pass', points: 0, reason: effective })
}
