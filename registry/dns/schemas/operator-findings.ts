import { z } from 'zod'

// The findings of the DNS operator checks (DANE: dane-findings.ts; delegation
// health: registry/domain/schemas/delegation-findings.ts): a stable id a client can
// key on (never changed once published; the message may be reworded), a severity on
// the scale the report and the TLS, web and domain checks speak, the problem in
// words and what to change. Where a Zonemaster test case checks the same thing,
// `zonemaster` names it, so an operator can compare the two tools' verdicts.

export const OPERATOR_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const
export type OperatorSeverity = (typeof OPERATOR_SEVERITIES)[number]

export interface CatalogEntry {
  severity: OperatorSeverity
  /** What the finding means, for the docs table. */
  meaning: string
  /** The Zonemaster test case that checks the same thing, when there is one. */
  zonemaster?: string
}

export const OperatorFindingData = z.object({
  id: z.string().meta({ description: 'Stable identifier (dane.no_match, delegation.lame, ...)' }),
  severity: z.enum(OPERATOR_SEVERITIES).meta({
    description: 'critical: it breaks (mail is deferred, the zone does not resolve); high: it breaks for some; medium: a risk or a standard broken; low: worth fixing; info: worth knowing',
  }),
  message: z.string(),
  fix: z.string().nullable(),
  zonemaster: z.string().nullable().meta({ description: 'The Zonemaster test case that checks the same thing (e.g. DELEGATION04, NAMESERVER03), when there is one' }),
  servers: z.array(z.string()).meta({ description: 'The hosts or name servers (name/address) it is about; empty when it is about the whole' }),
})

export type OperatorFinding = z.infer<typeof OperatorFindingData>
