import { z } from 'zod'
import { DeviationData, GuidelinesData, ProfileName } from './compliance-data.ts'
import { Target } from './tls-data.ts'

// GET /api/tls/compliance/{host}: the compliance part of an analysis on its
// own, one row per deviation.

export const TlsComplianceData = z.object({
  ...Target,
  grade: z.enum(['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'F', 'T', 'M']).meta({ description: 'The analysis grade, for context (compliance does not change it)' }),
  guidelines: GuidelinesData,
  profile: ProfileName.nullable().meta({ description: 'The profile asked for (?profile=), or null for all three' }),
  compliant: z.boolean().meta({ description: 'Every profile checked has no deviation' }),
  compliant_with: z.array(ProfileName).meta({ description: 'The profiles checked that have no deviation' }),
  profiles: z.array(
    z.object({
      profile: ProfileName,
      compliant: z.boolean(),
      deviation_count: z.number().int(),
      not_checked: z.array(z.object({ field: z.string(), reason: z.string() })),
      oldest_clients: z.array(z.string()).nullable(),
    }),
  ),
  deviations: z.array(DeviationData).meta({ description: 'Every deviation of every profile checked: profile, field, expected, seen' }),
})
