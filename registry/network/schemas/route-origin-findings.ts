import { z } from 'zod'
import { Severity } from '../../domain/schemas/domain-data.ts'

// The findings of /api/network/route-origin, in a file of their own so that
// /api/network/intelligence (routing-data.ts) can carry them too.

/** The stable ids of the findings /api/network/route-origin can carry (docs/routing.md lists them). */
export const ROUTE_ORIGIN_FINDING_IDS = [
  'route_origin.rpki_invalid',
  'route_origin.unregistered_origin',
  'route_origin.foreign_holder',
  'route_origin.foreign_more_specific',
  'route_origin.multi_origin',
  'route_origin.unannounced',
] as const

export const RouteOriginFinding = z.object({
  id: z.enum(ROUTE_ORIGIN_FINDING_IDS).meta({ description: 'stable id of the finding' }),
  severity: Severity,
  message: z.string(),
  evidence: z.array(z.string()).meta({ description: 'the facts the finding stands on, each naming its source (BGP, RDAP, VRP)' }),
})

export const IntelligenceOriginCheck = z
  .object({
    route: z.string().nullable(),
    verdict: z.enum(['consistent', 'mismatch', 'unknown', 'unannounced']),
    origins: z.array(z.object({ asn: z.number().int(), verdict: z.enum(['consistent', 'mismatch', 'unknown']) })),
    findings: z.array(RouteOriginFinding),
  })
  .nullable()
  .meta({ description: 'with ?origin_check=true: the covering route\'s origins against its registration and the VRPs (/api/network/route-origin of the route); null when not asked or not routed' })
