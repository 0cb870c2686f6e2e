import type { Analysis } from './check.ts'
import { parseParams } from './header-params.ts'

// Strict-Transport-Security (RFC 6797). A browser honours only the first header,
// only over https, and ignores the whole header when max-age is missing or a
// directive repeats (§6.1, §8.1). Thresholds: six months is the least that
// protects returning visitors (Mozilla's guideline); the preload list
// (hstspreload.org) wants a year, includeSubDomains and preload.

export const HSTS_MIN_MAX_AGE = 15_768_000
export const HSTS_PRELOAD_MAX_AGE = 31_536_000

export interface Hsts {
  max_age: number | null
  include_subdomains: boolean
  preload: boolean
  valid: boolean
  preload_ready: boolean
  problems: string[]
}

export function parseHsts(value: string): Hsts {
  const problems: string[] = []
  const seen = new Set<string>()
  let maxAge: number | null = null
  let valid = true
  for (const p of parseParams(value)) {
    if (seen.has(p.name)) {
      problems.push(`the directive ${p.name} appears twice; browsers ignore the whole header`)
      valid = false
    }
    seen.add(p.name)
    if (p.name === 'max-age') {
      if (p.value === null || !/^\d+$/.test(p.value)) {
        problems.push(`max-age must be a number of seconds, not "${p.value ?? ''}"`)
        valid = false
      } else maxAge = Number(p.value)
    } else if ((p.name === 'includesubdomains' || p.name === 'preload') && p.value !== null) {
      problems.push(`${p.name} takes no value`)
    } else if (p.name !== 'includesubdomains' && p.name !== 'preload') {
      problems.push(`unknown directive "${p.name}" (ignored)`)
    }
  }
  if (!seen.has('max-age')) {
    problems.push('max-age is missing; browsers ignore the header without it')
    valid = false
  }
  const includeSubdomains = seen.has('includesubdomains')
  const preload = seen.has('preload')
  return {
    max_age: maxAge,
    include_subdomains: includeSubdomains,
    preload,
    valid,
    preload_ready: valid && maxAge !== null && maxAge >= HSTS_PRELOAD_MAX_AGE && includeSubdomains && preload,
    problems,
  }
}

const days = (seconds: number) => (seconds < 86_400 ? `${seconds} s` : `${Math.round(seconds / 86_400)} days`)

/** `values`: every Strict-Transport-Security header; `https`: the final response came over https. */
export function analyzeHsts(values: readonly string[], https: boolean): Analysis<Hsts | null> {
  const header = 'strict-transport-security'
  if (!https) {
    return {
      checks: [{ id: 'hsts', header, result: 'not_applicable', points: 0, value: values[0] ?? null, reason: 'HSTS only works over https; see the https check' }],
      findings: [],
      detail: values[0] ? parseHsts(values[0]) : null,
    }
  }
  if (values.length === 0) {
    return {
      checks: [{ id: 'hsts', header, result: 'fail', points: -20, value: null, reason: 'No Strict-Transport-Security: a first http:// request can be intercepted and downgraded' }],
      findings: [
        {
          code: 'hsts.missing',
          severity: 'high',
          message: 'No Strict-Transport-Security header: browsers may still reach the site over plain http, where it can be intercepted.',
          fix: `Send Strict-Transport-Security: max-age=${HSTS_PRELOAD_MAX_AGE}; includeSubDomains over https.`,
        },
      ],
      detail: null,
    }
  }
  const hsts = parseHsts(values[0]!)
  const findings: Analysis<Hsts>['findings'] = []
  if (values.length > 1) {
    findings.push({ code: 'hsts.multiple', severity: 'low', message: `${values.length} Strict-Transport-Security headers; browsers use only the first.`, fix: 'Send one header.' })
  }
  let check: Analysis<Hsts>['checks'][number]
  if (!hsts.valid) {
    check = { id: 'hsts', header, result: 'fail', points: -20, value: values[0]!, reason: `Invalid, so ignored by browsers: ${hsts.problems.join('; ')}` }
    findings.push({ code: 'hsts.invalid', severity: 'high', message: `The Strict-Transport-Security header is invalid and ignored: ${hsts.problems.join('; ')}.`, fix: `Send max-age=${HSTS_PRELOAD_MAX_AGE}; includeSubDomains.` })
  } else if (hsts.max_age === 0) {
    check = { id: 'hsts', header, result: 'fail', points: -20, value: values[0]!, reason: 'max-age=0 tells browsers to forget HSTS for the site' }
    findings.push({ code: 'hsts.disabled', severity: 'high', message: 'max-age=0 switches HSTS off.', fix: `Raise max-age to at least ${HSTS_MIN_MAX_AGE} (six months).` })
  } else if (hsts.max_age! < HSTS_MIN_MAX_AGE) {
    check = { id: 'hsts', header, result: 'warn', points: -10, value: values[0]!, reason: `max-age is ${days(hsts.max_age!)}, under six months` }
    findings.push({ code: 'hsts.short_max_age', severity: 'medium', message: `HSTS max-age is ${days(hsts.max_age!)}; returning visitors lose protection quickly.`, fix: `Raise max-age to at least ${HSTS_MIN_MAX_AGE} (six months), ideally ${HSTS_PRELOAD_MAX_AGE}.` })
  } else {
    check = { id: 'hsts', header, result: 'pass', points: 0, value: values[0]!, reason: `max-age ${days(hsts.max_age!)}${hsts.include_subdomains ? ', includeSubDomains' : ''}${hsts.preload ? ', preload' : ''}` }
  }
  if (hsts.valid && !hsts.include_subdomains) {
    findings.push({ code: 'hsts.no_include_subdomains', severity: 'info', message: 'HSTS does not cover subdomains (no includeSubDomains).', fix: 'Add includeSubDomains once every subdomain serves https.' })
  }
  if (hsts.preload && !hsts.preload_ready) {
    findings.push({ code: 'hsts.preload_not_ready', severity: 'low', message: 'The preload directive is set, but the header does not meet the preload list rules (max-age >= 1 year and includeSubDomains).', fix: `Send max-age=${HSTS_PRELOAD_MAX_AGE}; includeSubDomains; preload.` })
  }
  return { checks: [check], findings, detail: hsts }
}
