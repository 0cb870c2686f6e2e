import { z } from 'zod'
import { ChainStopData, FallbackData, HopData } from './web-data.ts'
import { WebFindingData } from './web-findings.ts'

// The answer of /api/web/security-headers: the grade and the checks behind it,
// and what each header said. plugins/web/security-headers/ makes it.

export const GRADES = ['A+', 'A', 'B', 'C', 'D', 'E', 'F'] as const
export type Grade = (typeof GRADES)[number]

export const GradeData = z.enum(GRADES)

export const GRADE_SCALE = 'A+ 100, A >= 90, B >= 75, C >= 60, D >= 45, E >= 30, F below'

// One graded check: which header, what it said, and the points it moved the
// score with the reason.
export const CHECK_RESULTS = ['pass', 'warn', 'fail', 'info', 'not_applicable'] as const
export type CheckResult = (typeof CHECK_RESULTS)[number]

export const CheckData = z.object({
  id: z.string(),
  header: z.string(),
  result: z.enum(CHECK_RESULTS),
  points: z.number().int().meta({ description: 'Taken off the score of 100 (0 or negative)' }),
  value: z.string().nullable(),
  reason: z.string(),
})

export const HstsData = z.object({
  max_age: z.number().int().nullable(),
  include_subdomains: z.boolean(),
  preload: z.boolean(),
  valid: z.boolean().meta({ description: 'A browser would honour the header' }),
  preload_ready: z.boolean().meta({ description: 'max-age >= 1 year, includeSubDomains and preload (hstspreload.org rules for the header)' }),
  problems: z.array(z.string()),
})

export const CspPolicyData = z.object({
  disposition: z.enum(['enforce', 'report']).meta({ description: 'report: Content-Security-Policy-Report-Only, which blocks nothing' }),
  directives: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
  problems: z.array(z.string()),
})

export const CspData = z.object({
  present: z.boolean().meta({ description: 'An enforced policy is sent' }),
  report_only: z.boolean().meta({ description: 'Only Content-Security-Policy-Report-Only is sent (nothing is blocked)' }),
  policies: z.array(CspPolicyData),
  script_sources: z.array(z.string()).nullable().meta({ description: 'script-src (or default-src) of the first enforced policy that restricts scripts' }),
  unsafe_inline: z.boolean(),
  unsafe_eval: z.boolean(),
  broad_script_sources: z.array(z.string()).meta({ description: "Sources that allow scripts from almost anywhere: *, and scheme-only sources like https: or data:" }),
  strict_dynamic: z.boolean(),
  nonces_or_hashes: z.boolean(),
  object_src_none: z.boolean(),
  base_uri: z.boolean(),
  upgrade_insecure_requests: z.boolean(),
  frame_ancestors: z.array(z.string()).nullable(),
  wildcards: z.array(z.object({ directive: z.string(), source: z.string() })),
})

export const FramingData = z.object({
  x_frame_options: z.string().nullable(),
  frame_ancestors: z.array(z.string()).nullable(),
  protected: z.boolean(),
  via: z.enum(['frame-ancestors', 'x-frame-options']).nullable(),
})

export const PermissionsPolicyData = z.object({
  value: z.string().nullable(),
  features: z.array(z.object({ name: z.string(), allowlist: z.array(z.string()).meta({ description: '[] = disabled everywhere; * = every origin' }) })),
  problems: z.array(z.string()),
  feature_policy: z.string().nullable().meta({ description: 'The deprecated Feature-Policy header, when sent' }),
})

export const CrossOriginData = z.object({
  opener_policy: z.string().nullable(),
  embedder_policy: z.string().nullable(),
  resource_policy: z.string().nullable(),
  isolated: z.boolean().meta({ description: 'COOP same-origin and COEP require-corp/credentialless: the page is cross-origin isolated' }),
})

export const CookieData = z.object({
  name: z.string(),
  secure: z.boolean(),
  http_only: z.boolean(),
  same_site: z.enum(['strict', 'lax', 'none', 'invalid']).nullable().meta({ description: 'null: not set (browsers treat it as lax)' }),
  domain: z.string().nullable(),
  path: z.string().nullable(),
  prefix: z.enum(['__Secure-', '__Host-']).nullable(),
  session_like: z.boolean().meta({ description: 'The name looks like a session or auth cookie' }),
  issues: z.array(z.string()),
})

export const SecurityHeadersData = z.object({
  host: z.string(),
  url: z.string().meta({ description: 'The first URL requested' }),
  final_url: z.string().meta({ description: 'The page graded: the end of the redirect chain' }),
  fallback: FallbackData,
  status: z.number().int(),
  https: z.boolean(),
  grade: GradeData.meta({ description: `Grade of the score: ${GRADE_SCALE}` }),
  score: z.number().int().meta({ description: '100 plus the points of every check (checks only take points away)' }),
  checks: z.array(CheckData).meta({ description: 'Every check with its points and the reason; the score is 100 plus their sum' }),
  findings: z.array(WebFindingData),
  hsts: HstsData.nullable(),
  csp: CspData,
  framing: FramingData,
  content_type_options: z.object({ value: z.string().nullable(), valid: z.boolean() }),
  referrer_policy: z.object({ value: z.string().nullable(), effective: z.string().nullable().meta({ description: 'The policy a browser applies (the last one it recognizes)' }) }),
  permissions_policy: PermissionsPolicyData,
  cross_origin: CrossOriginData,
  cookies: z.array(CookieData).meta({ description: 'Cookies set by the graded response (values are not shown)' }),
  redirects: z.array(HopData),
  stopped: ChainStopData,
})
