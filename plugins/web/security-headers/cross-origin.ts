import type { WebFinding } from '../../../registry/web/schemas/web-findings.ts'
import type { Analysis, Check } from './check.ts'

// COOP, COEP and CORP (HTML and Fetch standards). They isolate a page from other
// origins (Spectre-class leaks, window references); worth having, but few sites
// can turn on COEP, so they are reported and explained without moving the score.

export interface CrossOrigin {
  opener_policy: string | null
  embedder_policy: string | null
  resource_policy: string | null
  /** COOP same-origin with COEP require-corp or credentialless: crossOriginIsolated. */
  isolated: boolean
}

const token = (v: string | undefined) => (v === undefined ? null : (v.split(';')[0]!.trim().toLowerCase() || null))

const VALID: Record<string, string[]> = {
  'cross-origin-opener-policy': ['same-origin', 'same-origin-allow-popups', 'noopener-allow-popups', 'unsafe-none'],
  'cross-origin-embedder-policy': ['require-corp', 'credentialless', 'unsafe-none'],
  'cross-origin-resource-policy': ['same-origin', 'same-site', 'cross-origin'],
}

export function analyzeCrossOrigin(coop: readonly string[], coep: readonly string[], corp: readonly string[]): Analysis<CrossOrigin> {
  const detail: CrossOrigin = {
    opener_policy: token(coop[0]),
    embedder_policy: token(coep[0]),
    resource_policy: token(corp[0]),
    isolated: false,
  }
  detail.isolated = detail.opener_policy === 'same-origin' && (detail.embedder_policy === 'require-corp' || detail.embedder_policy === 'credentialless')
  const checks: Check[] = []
  const findings: WebFinding[] = []
  const entries: Array<[string, string, string | null, string | undefined]> = [
    ['coop', 'cross-origin-opener-policy', detail.opener_policy, coop[0]],
    ['coep', 'cross-origin-embedder-policy', detail.embedder_policy, coep[0]],
    ['corp', 'cross-origin-resource-policy', detail.resource_policy, corp[0]],
  ]
  for (const [id, header, value, raw] of entries) {
    if (value === null) {
      checks.push({ id, header, result: 'info', points: 0, value: null, reason: 'Not sent (not scored)' })
      continue
    }
    if (!VALID[header]!.includes(value)) {
      checks.push({ id, header, result: 'warn', points: 0, value: raw ?? null, reason: `"${value}" is not a valid value, so it is ignored (not scored)` })
      findings.push({ code: `${id}.invalid`, severity: 'low', message: `${header} "${value}" is not a valid value.`, fix: `Use one of ${VALID[header]!.join(', ')}.` })
      continue
    }
    const weak = value === 'unsafe-none' || value === 'cross-origin'
    checks.push({ id, header, result: weak ? 'info' : 'pass', points: 0, value: raw ?? null, reason: weak ? `${value} opts out of isolation (not scored)` : value })
  }
  if (detail.opener_policy === null || detail.opener_policy === 'unsafe-none') {
    findings.push({
      code: 'coop.missing',
      severity: 'info',
      message: 'No Cross-Origin-Opener-Policy: pages this one opens (or that open it) keep a reference to its window.',
      fix: 'Send Cross-Origin-Opener-Policy: same-origin (or same-origin-allow-popups).',
    })
  }
  return { checks, findings, detail }
}
