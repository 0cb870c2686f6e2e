// Content-Security-Policy parsing as CSP Level 3 §2.2 does it: a header may carry
// several policies (comma-separated), a policy is directives separated by ";", a
// directive's name is lowercased, and a repeated directive is ignored (the first
// one counts). Every policy of every header is enforced at once.

export interface CspDirective {
  name: string
  values: string[]
}

export interface CspPolicy {
  disposition: 'enforce' | 'report'
  directives: CspDirective[]
  problems: string[]
}

const KNOWN = new Set([
  'default-src', 'script-src', 'script-src-elem', 'script-src-attr', 'style-src', 'style-src-elem', 'style-src-attr', 'img-src', 'font-src',
  'connect-src', 'media-src', 'object-src', 'frame-src', 'child-src', 'worker-src', 'manifest-src', 'prefetch-src', 'fenced-frame-src',
  'base-uri', 'form-action', 'frame-ancestors', 'navigate-to', 'sandbox', 'upgrade-insecure-requests', 'block-all-mixed-content',
  'report-uri', 'report-to', 'require-trusted-types-for', 'trusted-types', 'require-sri-for', 'plugin-types', 'referrer', 'webrtc',
])

export function parsePolicy(text: string, disposition: CspPolicy['disposition']): CspPolicy {
  const directives: CspDirective[] = []
  const problems: string[] = []
  for (const raw of text.split(';')) {
    const tokens = raw.trim().split(/[\t\n\f\r ]+/).filter(Boolean)
    if (tokens.length === 0) continue
    const name = tokens[0]!.toLowerCase()
    if (!/^[a-z0-9-]+$/.test(name)) {
      problems.push(`"${tokens[0]}" is not a directive name`)
      continue
    }
    if (directives.some((d) => d.name === name)) {
      problems.push(`${name} appears more than once; browsers use the first and ignore the rest`)
      continue
    }
    if (!KNOWN.has(name)) problems.push(`unknown directive "${name}" (ignored by browsers)`)
    directives.push({ name, values: tokens.slice(1) })
  }
  if (directives.length === 0) problems.push('the policy has no directives')
  return { disposition, directives, problems }
}

/** Every policy of the enforced and report-only headers. */
export function parseCspHeaders(enforced: readonly string[], reportOnly: readonly string[]): CspPolicy[] {
  const split = (values: readonly string[], d: CspPolicy['disposition']) =>
    values.flatMap((v) => v.split(',')).filter((p) => p.trim() !== '').map((p) => parsePolicy(p, d))
  return [...split(enforced, 'enforce'), ...split(reportOnly, 'report')]
}

export function directive(policy: CspPolicy, name: string): string[] | null {
  return policy.directives.find((d) => d.name === name)?.values ?? null
}
