import type { WebFinding } from '../../../registry/web/schemas/web-findings.ts'
import type { Check } from './check.ts'
import type { HeaderField } from '../web-response.ts'
import { headerValue } from '../web-response.ts'

// Headers that are not graded but worth saying something about: software
// versions handed to every scanner, and the retired X-XSS-Protection (its
// auditor was removed from browsers and could be abused for XS-leaks; "0" or
// nothing is the advice now).

export function analyzeDisclosure(headers: readonly HeaderField[]): { checks: Check[]; findings: WebFinding[] } {
  const checks: Check[] = []
  const findings: WebFinding[] = []
  const server = headerValue(headers, 'server')
  if (server !== null && /\d/.test(server)) {
    checks.push({ id: 'server_version', header: 'server', result: 'info', points: 0, value: server, reason: 'Announces a software version (not scored)' })
    findings.push({ code: 'disclosure.server_version', severity: 'low', message: `The Server header names a version: "${server}".`, fix: 'Send the product name only, or no Server header.' })
  }
  for (const name of ['x-powered-by', 'x-aspnet-version', 'x-aspnetmvc-version']) {
    const value = headerValue(headers, name)
    if (value === null) continue
    checks.push({ id: name.replace(/-/g, '_'), header: name, result: 'info', points: 0, value, reason: 'Announces the framework (not scored)' })
    findings.push({ code: `disclosure.${name}`, severity: 'low', message: `${name}: "${value}" tells attackers what to look for.`, fix: `Remove the ${name} header.` })
  }
  const xxp = headerValue(headers, 'x-xss-protection')
  if (xxp !== null && xxp.trim() !== '0') {
    checks.push({ id: 'x_xss_protection', header: 'x-xss-protection', result: 'info', points: 0, value: xxp, reason: 'Deprecated; browsers removed the XSS auditor (not scored)' })
    findings.push({ code: 'xxp.deprecated', severity: 'info', message: `X-XSS-Protection "${xxp}" is obsolete; the filter it enables was removed from browsers and could cause leaks.`, fix: 'Send X-XSS-Protection: 0 or drop it, and rely on CSP.' })
  }
  return { checks, findings }
}
