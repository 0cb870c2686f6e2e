// The MTA-STS policy file (RFC 8461 §3.2): "key: value" lines, CRLF or LF.
// version, mode and max_age are required, mx too unless mode is none. Senders
// match each MX host against the mx patterns (§4.1): an exact name, or "*." and a
// name, where the wildcard stands for exactly one leftmost label.

export type StsMode = 'enforce' | 'testing' | 'none'

export interface StsPolicy {
  version: string | null
  mode: StsMode | null
  max_age: number | null
  mx: string[]
  problems: string[]
}

const MAX_AGE_LIMIT = 31_557_600

export function parseStsPolicy(text: string): StsPolicy {
  const policy: StsPolicy = { version: null, mode: null, max_age: null, mx: [], problems: [] }
  const seen = new Set<string>()
  const lines = text.split(/\r?\n/)
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim()
    if (line === '') continue
    const colon = line.indexOf(':')
    if (colon <= 0) {
      policy.problems.push(`line ${i + 1} is not "key: value": ${JSON.stringify(line.slice(0, 60))}`)
      continue
    }
    const key = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    if (key !== 'mx' && seen.has(key)) policy.problems.push(`"${key}" appears more than once`)
    seen.add(key)
    switch (key) {
      case 'version':
        policy.version ??= value
        if (value !== 'STSv1') policy.problems.push(`version: ${value}: the only version is STSv1`)
        break
      case 'mode':
        if (value === 'enforce' || value === 'testing' || value === 'none') policy.mode ??= value
        else policy.problems.push(`mode: ${value}: must be enforce, testing or none`)
        break
      case 'max_age':
        if (/^\d{1,10}$/.test(value) && Number(value) <= MAX_AGE_LIMIT) policy.max_age ??= Number(value)
        else policy.problems.push(`max_age: ${value}: must be seconds from 0 to ${MAX_AGE_LIMIT}`)
        break
      case 'mx':
        if (/^(?:\*\.)?[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+\.?$/.test(value)) policy.mx.push(value.toLowerCase().replace(/\.$/, ''))
        else policy.problems.push(`mx: ${value}: not a host name or "*." pattern`)
        break
      default:
        // Unknown keys are ignored by senders (extensions).
        break
    }
  }
  if (policy.version === null) policy.problems.push('version is missing')
  if (policy.mode === null && !policy.problems.some((p) => p.startsWith('mode'))) policy.problems.push('mode is missing')
  if (policy.max_age === null && !policy.problems.some((p) => p.startsWith('max_age'))) policy.problems.push('max_age is missing')
  if (policy.mx.length === 0 && policy.mode !== 'none') policy.problems.push('no mx lines: the policy matches no mail server')
  return policy
}

/** Does an mx pattern cover a host? "*.example.com" covers "mx.example.com", not "example.com" or "a.b.example.com". */
export function patternMatches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase().replace(/\.$/, '')
  const h = host.toLowerCase().replace(/\.$/, '')
  if (!p.startsWith('*.')) return p === h
  const dot = h.indexOf('.')
  return dot > 0 && h.slice(dot + 1) === p.slice(2)
}
