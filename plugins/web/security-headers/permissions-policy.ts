import type { Analysis } from './check.ts'
import { splitOutsideQuotes } from './header-params.ts'

// Permissions-Policy is a structured-field dictionary (RFC 8941):
// `camera=(), geolocation=(self "https://maps.example")`. A syntax error makes a
// browser drop the whole header, so one is enough to call it invalid. The older
// Feature-Policy syntax (`camera 'none'`) is a common cause.

export interface PermissionsPolicy {
  value: string | null
  features: Array<{ name: string; allowlist: string[] }>
  problems: string[]
  feature_policy: string | null
}

const KEY = /^[a-z*][a-z0-9_\-.*]*$/
const ITEM = /^(\*|self|src|"[^"\\]*")$/
const POWERFUL = new Set(['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'hid', 'bluetooth', 'display-capture', 'clipboard-read'])

function parseAllowlist(raw: string): string[] | null {
  const v = raw.trim()
  if (v.startsWith('(')) {
    if (!v.endsWith(')')) return null
    const inner = v.slice(1, -1).trim()
    if (inner === '') return []
    const items = inner.split(/ +/)
    return items.every((i) => ITEM.test(i)) ? items.map((i) => i.replace(/^"|"$/g, '')) : null
  }
  return ITEM.test(v) ? [v.replace(/^"|"$/g, '')] : null
}

/** Splits on commas outside quotes and parentheses. */
function members(text: string): string[] {
  const out: string[] = []
  let depth = 0
  let current = ''
  for (const part of splitOutsideQuotes(text, ',')) {
    current = current === '' ? part : `${current},${part}`
    depth = (current.match(/\(/g)?.length ?? 0) - (current.match(/\)/g)?.length ?? 0)
    if (depth <= 0) {
      out.push(current)
      current = ''
    }
  }
  if (current !== '') out.push(current)
  return out
}

export function parsePermissionsPolicy(value: string): Pick<PermissionsPolicy, 'features' | 'problems'> {
  const features: PermissionsPolicy['features'] = []
  const problems: string[] = []
  for (const raw of members(value)) {
    const member = raw.trim()
    if (member === '') {
      problems.push('an empty member (stray comma)')
      continue
    }
    const eq = member.indexOf('=')
    const name = (eq < 0 ? member : member.slice(0, eq)).trim()
    if (!KEY.test(name)) {
      problems.push(/['\s]/.test(member) ? `"${member}" is Feature-Policy syntax, not Permissions-Policy` : `"${name}" is not a feature name`)
      continue
    }
    if (eq < 0) {
      problems.push(`${name} has no allowlist (write ${name}=() to disable it)`)
      continue
    }
    const allowlist = parseAllowlist(member.slice(eq + 1))
    if (allowlist === null) {
      problems.push(`${name}=${member.slice(eq + 1).trim()} is not a valid allowlist (use (), *, self or ("https://origin"))`)
      continue
    }
    features.push({ name, allowlist })
  }
  return { features, problems }
}

export function analyzePermissionsPolicy(values: readonly string[], featurePolicy: readonly string[]): Analysis<PermissionsPolicy> {
  const header = 'permissions-policy'
  const value = values.length ? values.join(', ') : null
  const fp = featurePolicy.length ? featurePolicy.join(', ') : null
  if (value === null) {
    const detail = { value, features: [], problems: [], feature_policy: fp }
    return {
      checks: [{ id: 'permissions_policy', header, result: 'warn', points: -5, value, reason: fp ? 'Only the deprecated Feature-Policy is sent' : 'Missing: every page may use powerful browser features' }],
      findings: [
        {
          code: fp ? 'permissions.feature_policy_only' : 'permissions.missing',
          severity: 'low',
          message: fp ? 'Only Feature-Policy is sent; browsers have replaced it with Permissions-Policy.' : 'No Permissions-Policy: embedded content may ask for camera, microphone, geolocation and other features.',
          fix: 'Send e.g. Permissions-Policy: camera=(), microphone=(), geolocation=(), payment=().',
        },
      ],
      detail,
    }
  }
  const parsed = parsePermissionsPolicy(value)
  const detail = { value, ...parsed, feature_policy: fp }
  if (parsed.problems.length > 0) {
    return {
      checks: [{ id: 'permissions_policy', header, result: 'warn', points: -5, value, reason: `Invalid, so browsers ignore it: ${parsed.problems[0]}` }],
      findings: [{ code: 'permissions.invalid', severity: 'low', message: `Permissions-Policy is invalid and ignored: ${parsed.problems.join('; ')}.`, fix: 'Use the structured-field syntax: feature=(), feature=(self "https://origin").' }],
      detail,
    }
  }
  const open = parsed.features.filter((f) => f.allowlist.includes('*') && POWERFUL.has(f.name)).map((f) => f.name)
  return {
    checks: [{ id: 'permissions_policy', header, result: 'pass', points: 0, value, reason: `${parsed.features.length} features set` }],
    findings: open.length
      ? [{ code: 'permissions.open_features', severity: 'info', message: `Powerful features allowed for every origin: ${open.join(', ')}.`, fix: 'Allow them for self or named origins only.' }]
      : [],
    detail,
  }
}
