import { z } from 'zod'
import { ChainStopData, FallbackData, HopData } from '../web-data.ts'
import { WebFindingData } from '../web-findings.ts'
import { CheckData } from './check.ts'
import { CookieData } from './cookies.ts'
import { CrossOriginData } from './cross-origin.ts'
import { CspData } from './csp.ts'
import { FramingData } from './framing.ts'
import { GRADE_SCALE, GradeData } from './grade.ts'
import { HstsData } from './hsts.ts'
import { PermissionsPolicyData } from './permissions-policy.ts'

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
