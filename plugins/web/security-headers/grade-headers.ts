import type { WebFinding } from '../../../registry/web/schemas/web-findings.ts'
import { sortFindings } from '../web-findings.ts'
import type { HeaderField, TlsInfo } from '../web-response.ts'
import { headerValues } from '../web-response.ts'
import type { Check } from './check.ts'
import type { CookieInfo } from './cookies.ts'
import { analyzeCookies } from './cookies.ts'
import type { CrossOrigin } from './cross-origin.ts'
import { analyzeCrossOrigin } from './cross-origin.ts'
import type { CspAnalysis } from './csp.ts'
import { analyzeCsp } from './csp.ts'
import { analyzeDisclosure } from './disclosure.ts'
import type { Framing } from './framing.ts'
import { analyzeFraming } from './framing.ts'
import type { Grade } from '../../../registry/web/schemas/security-headers-data.ts'
import { gradeOf } from './grade.ts'
import type { Hsts } from './hsts.ts'
import { analyzeHsts } from './hsts.ts'
import type { PermissionsPolicy } from './permissions-policy.ts'
import { analyzePermissionsPolicy } from './permissions-policy.ts'
import { analyzeContentTypeOptions, analyzeReferrerPolicy } from './simple-headers.ts'
import { analyzeTransport } from './transport.ts'

// The grading of one response, without any network: the report endpoint can
// grade a response it already fetched. Score = 100 + the points of every check.

export interface GradeInput {
  url: string
  headers: readonly HeaderField[]
  tls: TlsInfo | null
}

export interface HeaderGrade {
  grade: Grade
  score: number
  https: boolean
  checks: Check[]
  findings: WebFinding[]
  hsts: Hsts | null
  csp: CspAnalysis
  framing: Framing
  content_type_options: { value: string | null; valid: boolean }
  referrer_policy: { value: string | null; effective: string | null }
  permissions_policy: PermissionsPolicy
  cross_origin: CrossOrigin
  cookies: CookieInfo[]
}

export function gradeSecurityHeaders(input: GradeInput): HeaderGrade {
  const h = (name: string) => headerValues(input.headers, name)
  const transport = analyzeTransport(input.url, input.tls)
  const https = transport.detail.https
  const hsts = analyzeHsts(h('strict-transport-security'), https)
  const csp = analyzeCsp(h('content-security-policy'), h('content-security-policy-report-only'))
  const framing = analyzeFraming(h('x-frame-options'), csp.detail.frame_ancestors)
  const xcto = analyzeContentTypeOptions(h('x-content-type-options'))
  const referrer = analyzeReferrerPolicy(h('referrer-policy'))
  const permissions = analyzePermissionsPolicy(h('permissions-policy'), h('feature-policy'))
  const crossOrigin = analyzeCrossOrigin(h('cross-origin-opener-policy'), h('cross-origin-embedder-policy'), h('cross-origin-resource-policy'))
  const cookies = analyzeCookies(h('set-cookie'), https)
  const disclosure = analyzeDisclosure(input.headers)
  const parts = [transport, hsts, csp, framing, xcto, referrer, permissions, crossOrigin, cookies, disclosure]
  const checks = parts.flatMap((p) => p.checks)
  const score = Math.max(0, 100 + checks.reduce((sum, c) => sum + c.points, 0))
  return {
    grade: gradeOf(score),
    score,
    https,
    checks,
    findings: sortFindings(parts.flatMap((p) => p.findings)),
    hsts: hsts.detail,
    csp: csp.detail,
    framing: framing.detail,
    content_type_options: xcto.detail,
    referrer_policy: referrer.detail,
    permissions_policy: permissions.detail,
    cross_origin: crossOrigin.detail,
    cookies: cookies.detail,
  }
}
