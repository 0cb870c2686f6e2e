import { z } from 'zod'
import { AsnRegistrationData } from '../../domain/schemas/rdap-data.ts'
import { IntelligenceOriginCheck } from './route-origin-findings.ts'

// Shapes of the routing endpoints' data (OpenAPI and tests): /api/asn,
// /api/bgp/prefix, /api/bgp/asn, /api/rpki, /api/network/intelligence.

export const RipestatMessageData = z
  .object({
    call: z.string().meta({ description: 'the RIPEstat data call that said it (or "infralens" for our own notes on its data)' }),
    level: z.string().meta({ description: 'info, warning or error' }),
    text: z.string(),
  })
  .meta({ description: 'A message RIPEstat attached to its answer (stale data, visibility filters, query-time changes)' })

export const PartErrorData = z
  .object({
    part: z.string().meta({ description: 'which part of the answer failed' }),
    code: z.string().meta({ description: 'the error code the part would have answered with alone' }),
    message: z.string(),
    upstream: z.string().nullable(),
    reason: z.string().nullable(),
  })
  .meta({ description: 'A part that failed; its field is null and the rest of the answer stands' })

const Asn = z.number().int().min(0).max(4_294_967_295)

export const VrpData = z.object({
  prefix: z.string(),
  max_length: z.number().int(),
  asn: Asn,
  ta: z.string().nullable().meta({ description: 'trust anchor (RIR) the VRP was validated under, when the export says' }),
})

export const VrpSetData = z
  .object({
    source: z.string().meta({ description: 'INFRALENS_VRP_URL: where the VRPs come from' }),
    generated_at: z.string().nullable().meta({ description: 'when the export was generated (its metadata), ISO 8601' }),
    loaded_at: z.string(),
    checked_at: z.string().nullable().meta({ description: 'last time the source answered (a new set, or unchanged)' }),
    age_seconds: z.number().int().meta({ description: 'seconds since generated_at (since loaded_at when the export has no date)' }),
    stale: z.boolean().meta({ description: 'generated more than 24 h ago: the validator behind the source may have stopped' }),
    vrps: z.number().int(),
    ipv4: z.number().int(),
    ipv6: z.number().int(),
    rejected: z.number().int().meta({ description: 'entries of the export that were not valid VRPs (ignored)' }),
    expired_dropped: z.number().int().meta({ description: 'VRPs of the export not used because they had expired (their expires time passed), at load or since' }),
    next_expiry: z.string().nullable().meta({ description: 'when the next VRP of the set expires and is dropped, ISO 8601; null when the export gives no expiry times' }),
    last_refresh_error: z.string().nullable().meta({ description: 'why the latest refresh failed, if it did: the set above is the last good one' }),
  })
  .meta({ description: 'The VRP set the answer was computed with' })

export const OriginValidationData = z.object({
  asn: Asn,
  state: z.enum(['valid', 'invalid', 'not-found']).meta({ description: 'RFC 6811 validation state' }),
  reason: z.enum(['as', 'length']).nullable().meta({ description: 'invalid: no covering VRP for this AS (as), or one whose maxLength is too short (length)' }),
  description: z.string(),
  source: z.enum(['query', 'bgp']).meta({ description: 'query: ?asn=; bgp: an origin RIPEstat sees announcing the prefix' }),
  matched: z.array(VrpData).meta({ description: 'covering VRPs with this AS and a long enough maxLength' }),
  unmatched_as: z.array(VrpData).meta({ description: 'covering VRPs of other ASes (AS0 VRPs included)' }),
  unmatched_length: z.array(VrpData).meta({ description: 'covering VRPs of this AS whose maxLength is shorter than the prefix' }),
})

export const RpkiData = z.object({
  prefix: z.string().meta({ description: 'the prefix validated, host bits cleared' }),
  version: z.union([z.literal(4), z.literal(6)]),
  origins: z.array(OriginValidationData),
  covering_vrps: z.array(VrpData).meta({ description: 'every VRP covering the prefix, most specific first' }),
  bgp: z
    .object({
      announced: z.boolean().meta({ description: 'the prefix itself is in BGP (RIPEstat prefix-overview)' }),
      origins: z.array(Asn),
      covering_route: z.string().nullable().meta({ description: 'when not announced itself: the first-level less specific RIPEstat aligned to' }),
      messages: z.array(RipestatMessageData),
    })
    .nullable()
    .meta({ description: 'null when ?asn= named the origin (RIPEstat not asked)' }),
  vrp_set: VrpSetData,
})

export const AsnRoutingData = z
  .object({
    holder: z.string().nullable().meta({ description: 'the AS name RIPEstat shows (as-overview)' }),
    announced: z.boolean().nullable(),
    prefixes: z
      .object({
        ipv4: z.number().int(),
        ipv6: z.number().int(),
        total: z.number().int(),
        window: z.object({ start: z.string().nullable(), end: z.string().nullable() }),
      })
      .nullable()
      .meta({ description: 'prefixes announced in RIPEstat\'s window (announced-prefixes), per family' }),
    neighbours: z
      .object({ upstream: z.number().int(), downstream: z.number().int(), unknown: z.number().int(), unique: z.number().int() })
      .nullable()
      .meta({ description: 'neighbour counts by side (asn-neighbours): left = upstream, right = downstream, uncertain = unknown' }),
    messages: z.array(RipestatMessageData),
  })
  .meta({ description: 'The RIPEstat half of the answer; a failed call leaves its field null and an entry in errors' })

export const AsnData = AsnRegistrationData.extend({
  routing: AsnRoutingData,
  errors: z.array(PartErrorData),
})

export const NeighbourData = z.object({
  asn: Asn,
  power: z.number().int().nullable().meta({ description: 'how many RIS peers see the adjacency' }),
  v4_peers: z.number().int().nullable(),
  v6_peers: z.number().int().nullable(),
})

export const AnnouncedPrefixData = z.object({
  prefix: z.string(),
  version: z.union([z.literal(4), z.literal(6)]),
  first_seen: z.string().nullable().meta({ description: 'start of the earliest timeline in the window' }),
  last_seen: z.string().nullable().meta({ description: 'end of the latest timeline in the window' }),
})

export const BgpAsnData = z.object({
  asn: Asn,
  neighbours: z.object({
    counts: z.object({ upstream: z.number().int(), downstream: z.number().int(), unknown: z.number().int(), unique: z.number().int() }),
    upstream: z.array(NeighbourData).meta({ description: 'RIPEstat "left" neighbours, by power' }),
    downstream: z.array(NeighbourData).meta({ description: 'RIPEstat "right" neighbours, by power' }),
    unknown: z.array(NeighbourData).meta({ description: 'RIPEstat "uncertain" neighbours, by power' }),
  }),
  prefix_counts: z.object({ ipv4: z.number().int(), ipv6: z.number().int(), total: z.number().int() }),
  prefixes: z.array(AnnouncedPrefixData).meta({ description: 'announced prefixes in address order; sort=prefix, limit and offset page them' }),
  window: z.object({ start: z.string().nullable(), end: z.string().nullable() }),
  messages: z.array(RipestatMessageData),
})

const PrefixOriginData = z.object({ prefix: z.string(), origin: Asn.nullable() })
const SeenData = z.object({ prefix: z.string(), origin: Asn.nullable(), time: z.string().nullable() }).nullable()

export const BgpPrefixData = z.object({
  prefix: z.string().meta({ description: 'the prefix asked about, host bits cleared' }),
  version: z.union([z.literal(4), z.literal(6)]),
  announced: z.boolean().meta({ description: 'the prefix itself is seen in BGP' }),
  origins: z
    .array(z.object({ asn: Asn, holder: z.string().nullable(), route_objects: z.array(z.string()).meta({ description: 'IRR databases with a route object for it' }) }))
    .meta({ description: 'origin ASes announcing the prefix itself' }),
  multi_origin: z.boolean().meta({ description: 'more than one origin AS (MOAS): anycast, a migration, or a hijack' }),
  covering_route: z
    .object({ prefix: z.string(), origins: z.array(z.object({ asn: Asn, holder: z.string().nullable() })) })
    .nullable()
    .meta({ description: 'when not announced itself: the first-level less specific route that carries it' }),
  less_specifics: z.array(PrefixOriginData),
  more_specifics: z.array(PrefixOriginData),
  visibility: z
    .object({ ris_peers_seeing: z.number().int(), total_ris_peers: z.number().int(), percent: z.number() })
    .nullable()
    .meta({ description: 'RIS full-table peers seeing the prefix (its own address family)' }),
  first_seen: SeenData,
  last_seen: SeenData,
  block: z.object({ resource: z.string().nullable(), description: z.string().nullable(), name: z.string().nullable() }).nullable(),
  data_time: z.string().nullable().meta({ description: 'the RIS snapshot the answer describes' }),
  messages: z.array(RipestatMessageData),
})

export const IntelligenceData = z.object({
  ip: z.string(),
  version: z.union([z.literal(4), z.literal(6)]),
  classification: z.object({ class: z.string(), name: z.string(), prefix: z.string().nullable() }),
  special_purpose: z.array(z.object({ prefix: z.string(), name: z.string() })),
  bogon: z.object({ bogon: z.boolean(), prefix: z.string().nullable(), reason: z.string() }),
  asn: z
    .object({ number: Asn, name: z.string(), range: z.object({ start: z.string(), end: z.string() }), source: z.string() })
    .nullable()
    .meta({ description: 'from the bundled offline data (not BGP)' }),
  country: z.object({ code: z.string(), source: z.string() }).nullable().meta({ description: 'country of registration from the bundled data' }),
  reverse_dns: z
    .object({
      status: z.string(),
      names: z.array(z.object({ name: z.string(), forward_confirmed: z.boolean() })),
      fcrdns: z.boolean(),
    })
    .nullable(),
  bgp: z
    .object({ prefix: z.string(), origins: z.array(Asn), multi_origin: z.boolean(), messages: z.array(RipestatMessageData) })
    .nullable()
    .meta({ description: 'the most specific announced route covering the IP (RIPEstat network-info)' }),
  rpki: z
    .object({
      route: z.string(),
      origins: z.array(z.object({ asn: Asn, state: z.enum(['valid', 'invalid', 'not-found']), reason: z.enum(['as', 'length']).nullable() })),
      vrp_set_age_seconds: z.number().int(),
    })
    .nullable()
    .meta({ description: 'RFC 6811 state of the covering route, per origin' }),
  anycast: z.object({
    anycast: z.boolean().meta({ description: 'the IP is in a prefix on the bundled list of known anycast services' }),
    prefix: z.string().nullable(),
    service: z.string().nullable(),
    source: z.string().nullable().meta({ description: 'where the listed prefix is documented' }),
    basis: z.string().meta({ description: 'how the flag is decided; false means "not on the list", not proven unicast' }),
  }),
  routed: z.boolean().nullable().meta({ description: 'a BGP route covers the IP (null when BGP could not be asked)' }),
  origin_check: IntelligenceOriginCheck,
  errors: z.array(PartErrorData),
  skipped: z.array(z.object({ part: z.string(), reason: z.string() })).meta({ description: 'parts not attempted (e.g. BGP for a private address)' }),
})
