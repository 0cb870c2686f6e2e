import { z } from 'zod'
import { Severity } from './domain-data.ts'
import { PartErrorData } from '../../network/schemas/routing-data.ts'

// /api/domain/dependencies: every address a domain's name servers, mail
// exchangers and web hosts resolve to, each with what the routing endpoints know
// about it (/api/network/intelligence), and the findings that need all of them at once.

export const DependencyRole = z.enum(['ns', 'mx', 'web']).meta({ description: 'ns: a name server of the domain; mx: a mail exchanger; web: the apex or www' })

/** The stable ids of the findings /api/domain/dependencies can carry (docs/rdap.md lists them). */
export const DEPENDENCY_FINDING_IDS = [
  'dependencies.ns_single_as',
  'dependencies.ns_single_prefix',
  'dependencies.rpki_invalid',
  'dependencies.unannounced',
  'dependencies.bogon',
] as const

export const DependencyFinding = z.object({
  id: z.enum(DEPENDENCY_FINDING_IDS).meta({ description: 'stable id of the finding' }),
  severity: Severity,
  message: z.string(),
  evidence: z.array(z.string()).meta({ description: 'the addresses (or host names) the finding is about' }),
})

export const DependencyRow = z.object({
  role: DependencyRole,
  host: z.string().meta({ description: 'the host name the address belongs to (an NS target, an MX exchange, the apex or www)' }),
  address: z.string(),
  version: z.union([z.literal(4), z.literal(6)]).nullable(),
  bogon: z.boolean().nullable().meta({ description: 'not globally reachable (IANA special-purpose registries); null when the address could not be asked about' }),
  bogon_reason: z.string().nullable(),
  asn: z.number().int().nullable().meta({ description: 'the BGP origin AS of the covering route; without one, the AS of the bundled offline data' }),
  asn_source: z.enum(['bgp', 'offline']).nullable(),
  organization: z.string().nullable().meta({ description: 'the AS name from the bundled offline data' }),
  prefix: z.string().nullable().meta({ description: 'the most specific announced route covering the address (RIPEstat)' }),
  origins: z.array(z.number().int()).meta({ description: 'origin ASes of that route' }),
  announced: z.boolean().nullable().meta({ description: 'a BGP route covers the address; null when BGP could not be asked' }),
  rpki: z.enum(['valid', 'invalid', 'not-found']).nullable().meta({
    description: 'RFC 6811 state of the covering route against the loaded VRP set: invalid when any origin is invalid, valid when every origin is valid, else not-found; null when not known',
  }),
  anycast: z.boolean().nullable().meta({ description: 'on the bundled list of documented anycast services (false: not on the list, not proven unicast)' }),
  anycast_service: z.string().nullable(),
  errors: z.array(PartErrorData).meta({ description: 'parts of this row that failed; the row stands with those fields null' }),
})

export const DependencyLookup = z.object({
  role: DependencyRole,
  name: z.string(),
  type: z.enum(['NS', 'MX', 'A', 'AAAA']),
  status: z.enum(['answer', 'nodata', 'nxdomain', 'servfail', 'error', 'failed']).meta({ description: 'the DNS status; failed: the query itself failed (its error is in errors)' }),
  count: z.number().int(),
})

export const DependenciesData = z.object({
  domain: z.string(),
  dependencies: z.array(DependencyRow).meta({ description: 'one row per role, host and address; an address several hosts share is asked about once' }),
  lookups: z.array(DependencyLookup).meta({ description: 'every DNS question asked to find the hosts and their addresses' }),
  findings: z.array(DependencyFinding).meta({ description: 'most severe first' }),
  errors: z.array(PartErrorData).meta({ description: 'DNS questions that failed; the rest of the answer stands' }),
  skipped: z.array(z.object({ part: z.string(), reason: z.string() })).meta({ description: 'what was not asked, and why' }),
})
