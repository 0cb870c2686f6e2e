import type { WebFinding } from '../../../registry/web/schemas/web-findings.ts'
import type { Analysis, Check } from './check.ts'
import type { CspPolicy } from './csp-parse.ts'
import { directive, parseCspHeaders } from './csp-parse.ts'

// What the enforced policies allow, taken together (a browser applies every
// policy, so a script must pass all of them): scripts are unrestricted only when
// no policy restricts them, and 'unsafe-inline' is effective only when every
// restricting policy allows it — and has no nonce, hash or 'strict-dynamic',
// which make browsers ignore it (CSP3 §6.7.2). The CSP checks take at most 25
// points together, as much as having no policy at all.

const CSP_CAP = -25

export interface CspWildcard {
  directive: string
  source: string
}

export interface CspAnalysis {
  present: boolean
  report_only: boolean
  policies: CspPolicy[]
  script_sources: string[] | null
  unsafe_inline: boolean
  unsafe_eval: boolean
  broad_script_sources: string[]
  strict_dynamic: boolean
  nonces_or_hashes: boolean
  object_src_none: boolean
  base_uri: boolean
  upgrade_insecure_requests: boolean
  frame_ancestors: string[] | null
  wildcards: CspWildcard[]
}

const isNonceOrHash = (s: string) => /^'(nonce-|sha256-|sha384-|sha512-)/i.test(s)
const isBroad = (s: string) => s === '*' || /^[a-z][a-z0-9+.-]*:$/i.test(s) || /^[a-z][a-z0-9+.-]*:\/\/\*$/i.test(s)
const has = (values: readonly string[], keyword: string) => values.some((v) => v.toLowerCase() === keyword)

interface ScriptPolicy {
  values: string[]
  unsafeInline: boolean
  unsafeEval: boolean
  strictDynamic: boolean
  noncesOrHashes: boolean
  broad: string[]
}

function scriptPolicy(policy: CspPolicy): ScriptPolicy | null {
  const values = directive(policy, 'script-src') ?? directive(policy, 'default-src')
  if (values === null) return null
  const strictDynamic = has(values, "'strict-dynamic'")
  const noncesOrHashes = values.some(isNonceOrHash)
  return {
    values,
    unsafeInline: has(values, "'unsafe-inline'") && !noncesOrHashes && !strictDynamic,
    unsafeEval: has(values, "'unsafe-eval'"),
    strictDynamic,
    noncesOrHashes,
    // 'strict-dynamic' makes browsers ignore host and scheme sources.
    broad: strictDynamic ? [] : values.filter(isBroad),
  }
}

export function analyzeCsp(enforcedValues: readonly string[], reportOnlyValues: readonly string[]): Analysis<CspAnalysis> {
  const policies = parseCspHeaders(enforcedValues, reportOnlyValues)
  const enforced = policies.filter((p) => p.disposition === 'enforce')
  const scripts = enforced.map(scriptPolicy).filter((s): s is ScriptPolicy => s !== null)
  const all = <K extends keyof ScriptPolicy>(key: K) => scripts.length > 0 && scripts.every((s) => Boolean(s[key]) && (!Array.isArray(s[key]) || (s[key] as unknown[]).length > 0))
  const objectNone = enforced.some((p) => {
    const v = directive(p, 'object-src') ?? directive(p, 'default-src')
    return v !== null && v.length === 1 && v[0]!.toLowerCase() === "'none'"
  })
  const wildcards: CspWildcard[] = []
  for (const p of enforced) for (const d of p.directives) for (const v of d.values) if (v.includes('*')) wildcards.push({ directive: d.name, source: v })
  const frameAncestors = enforced.map((p) => directive(p, 'frame-ancestors')).find((v) => v !== null) ?? null

  const detail: CspAnalysis = {
    present: enforced.length > 0,
    report_only: enforced.length === 0 && policies.length > 0,
    policies,
    script_sources: scripts[0]?.values ?? null,
    unsafe_inline: all('unsafeInline'),
    unsafe_eval: all('unsafeEval'),
    broad_script_sources: all('broad') ? [...new Set(scripts.flatMap((s) => s.broad))] : [],
    strict_dynamic: scripts.some((s) => s.strictDynamic),
    nonces_or_hashes: scripts.some((s) => s.noncesOrHashes),
    object_src_none: objectNone,
    base_uri: enforced.some((p) => directive(p, 'base-uri') !== null),
    upgrade_insecure_requests: enforced.some((p) => directive(p, 'upgrade-insecure-requests') !== null),
    frame_ancestors: frameAncestors,
    wildcards,
  }

  const header = 'content-security-policy'
  const value = enforcedValues[0] ?? reportOnlyValues[0] ?? null
  const checks: Check[] = []
  const findings: WebFinding[] = []
  for (const p of policies) {
    for (const problem of p.problems) findings.push({ code: 'csp.syntax', severity: 'low', message: `CSP${p.disposition === 'report' ? ' (report-only)' : ''}: ${problem}.`, fix: 'Correct the policy.' })
  }
  if (!detail.present) {
    if (detail.report_only) {
      checks.push({ id: 'csp', header: 'content-security-policy-report-only', result: 'fail', points: -20, value, reason: 'Only a report-only policy: violations are reported, nothing is blocked' })
      findings.push({ code: 'csp.report_only', severity: 'medium', message: 'The Content-Security-Policy is report-only: it blocks nothing.', fix: 'Enforce it as Content-Security-Policy once the reports are clean.' })
    } else {
      checks.push({ id: 'csp', header, result: 'fail', points: -25, value: null, reason: 'No Content-Security-Policy: injected scripts run unhindered' })
      findings.push({ code: 'csp.missing', severity: 'high', message: 'No Content-Security-Policy: an injection flaw (XSS) can run any script.', fix: "Send a policy such as default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'." })
    }
    return { checks, findings, detail }
  }
  checks.push({ id: 'csp', header, result: 'pass', points: 0, value, reason: `${enforced.length} enforced ${enforced.length === 1 ? 'policy' : 'policies'}` })

  const issues: Array<{ id: string; points: number; reason: string; finding: WebFinding }> = []
  if (scripts.length === 0) {
    issues.push({
      id: 'csp.scripts',
      points: -20,
      reason: 'Neither script-src nor default-src: scripts are not restricted',
      finding: { code: 'csp.scripts_unrestricted', severity: 'high', message: 'The CSP restricts no scripts (no script-src or default-src).', fix: "Add script-src (or default-src) with 'self', nonces or hashes." },
    })
  } else {
    if (detail.unsafe_inline) {
      issues.push({
        id: 'csp.unsafe_inline',
        points: -20,
        reason: "'unsafe-inline' scripts are allowed (no nonce, hash or 'strict-dynamic')",
        finding: { code: 'csp.unsafe_inline', severity: 'high', message: "script-src allows 'unsafe-inline': injected inline scripts run.", fix: "Replace 'unsafe-inline' with nonces or hashes (and 'strict-dynamic')." },
      })
    }
    if (detail.broad_script_sources.length > 0) {
      issues.push({
        id: 'csp.broad_sources',
        points: -15,
        reason: `Scripts may load from ${detail.broad_script_sources.join(' ')}`,
        finding: {
          code: 'csp.broad_sources',
          severity: 'high',
          message: `script-src allows ${detail.broad_script_sources.join(', ')}: scripts from almost any origin load.`,
          fix: 'List the hosts scripts come from, or use nonces with \'strict-dynamic\'.',
        },
      })
    }
    if (detail.unsafe_eval) {
      issues.push({
        id: 'csp.unsafe_eval',
        points: -10,
        reason: "'unsafe-eval' allows eval() and new Function()",
        finding: { code: 'csp.unsafe_eval', severity: 'medium', message: "script-src allows 'unsafe-eval': strings become code.", fix: "Remove 'unsafe-eval' (use 'wasm-unsafe-eval' if only WebAssembly needs it)." },
      })
    }
  }
  if (!detail.object_src_none) {
    issues.push({
      id: 'csp.object_src',
      points: -5,
      reason: "object-src is not 'none' (plugins may load)",
      finding: { code: 'csp.object_src', severity: 'low', message: "object-src (or default-src) is not 'none'.", fix: "Add object-src 'none'." },
    })
  }
  let left = CSP_CAP
  for (const issue of issues) {
    const points = Math.max(issue.points, left)
    left -= points
    const capped = points !== issue.points
    checks.push({ id: issue.id, header, result: issue.points <= -15 ? 'fail' : 'warn', points, value, reason: capped ? `${issue.reason} (CSP total capped at ${CSP_CAP})` : issue.reason })
    findings.push(issue.finding)
  }
  const otherWildcards = wildcards.filter((w) => !detail.broad_script_sources.includes(w.source) || !['script-src', 'default-src'].includes(w.directive))
  if (otherWildcards.length > 0) {
    findings.push({
      code: 'csp.wildcards',
      severity: 'info',
      message: `Wildcard sources: ${otherWildcards.map((w) => `${w.directive} ${w.source}`).join(', ')}.`,
      fix: 'Narrow wildcards to the hosts actually used.',
    })
  }
  if (!detail.base_uri && detail.nonces_or_hashes) {
    findings.push({ code: 'csp.base_uri', severity: 'low', message: 'Nonce-based CSP without base-uri: an injected <base> can redirect relative script URLs.', fix: "Add base-uri 'self' (or 'none')." })
  }
  return { checks, findings, detail }
}
