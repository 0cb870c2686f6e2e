import { z } from 'zod'
import { Severity } from './domain-data.ts'
import { PartErrorData } from '../../network/schemas/routing-data.ts'

// /api/domain/issuance: the CAA record that governs a name (found by climbing
// the tree, RFC 8659 §3) against the CAs of its certificates in CT and of the
// certificate it serves now.

/** The stable ids of the findings /api/domain/issuance can carry (docs/tls.md lists them). */
export const ISSUANCE_FINDING_IDS = [
  'issuance.served_not_authorized',
  'issuance.logged_not_authorized',
  'issuance.no_caa_several_cas',
  'issuance.issuer_unknown',
  'issuance.unresolved_names',
] as const

export const IssuanceFinding = z.object({
  id: z.enum(ISSUANCE_FINDING_IDS).meta({ description: 'stable id of the finding' }),
  severity: Severity,
  message: z.string(),
  evidence: z.array(z.string()).meta({ description: 'the facts the finding stands on (CAA records, certificates, names)' }),
})

export const Authorization = z.enum(['allowed', 'not_allowed', 'no_caa', 'unrestricted', 'unknown_issuer', 'unknown']).meta({
  description:
    "allowed: the CAA set names the issuer's CA; not_allowed: it does not; no_caa: no CAA record anywhere up the tree (any CA may issue); unrestricted: CAA records without an issue tag for this kind of name; unknown_issuer: the issuer is not in the bundled table of CA identifiers, so it cannot be compared; unknown: the CAA set could not be read",
})

const Issuer = z.object({
  organization: z.string().nullable().meta({ description: 'the issuer DN\'s O' }),
  common_name: z.string().nullable(),
  ca: z.string().nullable().meta({ description: 'the CA operator the organization belongs to (bundled table, plugins/domain/issuance/ca-identifiers.ts); null when it is not on it' }),
  caa_identifiers: z.array(z.string()).meta({ description: 'the CAA issuer domains that CA answers to' }),
})

export const IssuanceData = z.object({
  domain: z.string(),
  caa: z.object({
    relevant_name: z.string().nullable().meta({ description: 'the closest name at or above the domain with CAA records (RFC 8659 relevant RRset); null when none has any or the climb failed' }),
    records: z.array(z.string()).meta({ description: 'the relevant RRset, as `flags tag "value"`' }),
    issue: z.array(z.string()).meta({ description: 'CA domains of the issue properties (an empty value, ";", allows none)' }),
    issuewild: z.array(z.string()).nullable().meta({ description: 'CA domains of the issuewild properties; null when there are none (issue then governs wildcards too)' }),
    complete: z.boolean().meta({ description: 'every name up the tree that needed asking answered; false: the CAA set is not known' }),
    lookups: z.array(z.object({ name: z.string(), status: z.string(), count: z.number().int() })).meta({ description: 'each name asked, from the domain up' }),
  }),
  served: z
    .object({
      host: z.string(),
      port: z.number().int(),
      issuer: Issuer,
      names: z.array(z.string()).meta({ description: 'the DNS names of the served leaf' }),
      wildcard: z.boolean().meta({ description: 'the domain is covered only by a wildcard name (issuewild governs it)' }),
      not_after: z.string(),
      authorization: Authorization,
    })
    .nullable()
    .meta({ description: 'the leaf served now on the https port (/api/tls/certificate); null when it could not be read' }),
  logged: z
    .object({
      certificates: z.number().int().meta({ description: 'unexpired certificates CT logs hold for the domain (crt.sh)' }),
      issuers: z.array(
        Issuer.extend({
          certificates: z.number().int(),
          wildcard_certificates: z.number().int(),
          authorization: Authorization.meta({ description: 'the worst over its certificates' }),
          example_serials: z.array(z.string()).meta({ description: 'up to 3 serial numbers (or crt.sh ids) of its certificates' }),
        }),
      ),
    })
    .nullable()
    .meta({ description: 'the unexpired certificates in CT (/api/certificate-transparency), by issuer; null when crt.sh could not be asked' }),
  names: z
    .array(z.object({ name: z.string(), resolves: z.boolean().nullable().meta({ description: 'an A or AAAA record exists; null when the question failed' }), status: z.string() }))
    .meta({ description: 'every (non-wildcard) name of the logged certificates, each asked A and AAAA' }),
  findings: z.array(IssuanceFinding).meta({ description: 'most severe first' }),
  errors: z.array(PartErrorData).meta({ description: 'parts that failed (caa <name>, served, ct, A/AAAA <name>); the rest of the answer stands' }),
  skipped: z.array(z.object({ part: z.string(), reason: z.string() })),
})
