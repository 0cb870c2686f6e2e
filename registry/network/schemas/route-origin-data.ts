import { z } from 'zod'
import { PartErrorData } from './routing-data.ts'
import { RouteOriginFinding } from './route-origin-findings.ts'

// /api/network/route-origin: a prefix's BGP origin AS(es) against what the
// registries say (the RDAP holder and registered origin ASNs of the covering
// allocation, the holder of each origin AS) and against the VRPs.

const Asn = z.number().int().min(0).max(4_294_967_295)
const Holder = z.object({ handle: z.string().nullable(), name: z.string().nullable() }).nullable()

export const OriginCheckRow = z.object({
  asn: Asn,
  as_name: z.string().nullable().meta({ description: 'the AS name BGP data shows (RIPEstat)' }),
  as_holder: Holder.meta({ description: "the holder of the AS number's registration (RDAP autnum); null when it could not be asked" }),
  same_holder: z.boolean().nullable().meta({ description: 'the AS and the address allocation are registered to one organization (same handle, or the same name); null when either holder is unknown' }),
  registered_origin: z.boolean().nullable().meta({ description: "the allocation's registered origin ASNs (ARIN originAS, RDAP arin_originas0) name this AS; null when the allocation lists none" }),
  rpki: z.enum(['valid', 'invalid', 'not-found']).nullable().meta({ description: 'RFC 6811 state of (route, AS) against the loaded VRP set; null when not known' }),
  rpki_reason: z.enum(['as', 'length']).nullable(),
  vrps: z.array(z.string()).meta({ description: 'the VRPs covering the route, as "prefix maxLength AS"' }),
  verdict: z.enum(['consistent', 'mismatch', 'unknown']).meta({
    description: 'consistent: RPKI valid, or a registered origin, or the same holder, and nothing says otherwise; mismatch: RPKI invalid, or an origin the allocation does not register, or another holder with no RPKI or registration vouching for it; unknown: not enough is known',
  }),
})

export const RouteOriginData = z.object({
  prefix: z.string().meta({ description: 'the prefix asked about, host bits cleared' }),
  route: z.string().nullable().meta({ description: 'the route whose origins are checked: the prefix itself when announced, else the covering route; null when neither is known' }),
  announced: z.boolean().nullable().meta({ description: 'the prefix itself is announced; null when BGP could not be asked' }),
  allocation: z
    .object({
      registry: z.string().nullable(),
      handle: z.string().nullable(),
      name: z.string().nullable(),
      cidrs: z.array(z.string()),
      holder: Holder,
      origin_asns: z.array(Asn).meta({ description: 'origin ASNs registered for the allocation (ARIN originAS); empty when the registry publishes none' }),
    })
    .nullable()
    .meta({ description: 'the RDAP network object covering the prefix (/api/whois/ip of its first address); null when unknown' }),
  origins: z.array(OriginCheckRow).meta({ description: 'one row per BGP origin AS of the route' }),
  more_specifics: z
    .array(z.object({ prefix: z.string(), origin: Asn.nullable(), known_origin: z.boolean().meta({ description: 'announced by an origin of the route or a registered origin of the allocation' }) }))
    .meta({ description: 'more specific routes inside the prefix (RIPEstat routing-status)' }),
  verdict: z.enum(['consistent', 'mismatch', 'unknown', 'unannounced']).meta({ description: 'mismatch when any origin row or more specific is one; consistent when every origin is; unannounced when no route carries the prefix' }),
  findings: z.array(RouteOriginFinding).meta({ description: 'most severe first' }),
  errors: z.array(PartErrorData).meta({ description: 'parts that failed (bgp, registration, rpki, as_holder AS<n>); the rest of the answer stands' }),
})
