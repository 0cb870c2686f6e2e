import { z } from 'zod'

// Shapes of the DNS endpoints' data (documentation and tests).

export const DnsRecordData = z.looseObject({ name: z.string(), type: z.string(), ttl: z.number().int() }).meta({
  description: 'One record, flat: name, type, ttl and the type\'s fields (address, exchange, preference, text, target, ...)',
})

export const ResolverInfo = z.object({ name: z.string(), address: z.string(), port: z.number().int(), transport: z.enum(['udp', 'tcp']) })

export const AnswerStatus = z.enum(['answer', 'nodata', 'nxdomain', 'servfail', 'error']).meta({
  description: 'answer: records found; nodata: the name exists without records of this type; nxdomain: the name does not exist',
})

export const DnsRecordsData = z.object({
  domain: z.string(),
  type: z.string(),
  rcode: z.string(),
  status: AnswerStatus,
  records: z.array(DnsRecordData),
  chain: z.array(DnsRecordData).meta({ description: 'CNAME/DNAME records followed from the domain to canonical_name' }),
  canonical_name: z.string(),
  authenticated: z.boolean().meta({ description: 'AD flag from the resolver (its own DNSSEC validation; see /api/dns/dnssec for ours)' }),
  ttl: z.number().int().nullable().meta({ description: 'Smallest TTL in the answer (negative answers: the SOA minimum); the cache TTL' }),
  resolver: ResolverInfo,
  latency_ms: z.number(),
})

/** The verdict on the answer's RRset when /api/dns/query is asked with dnssec=true (from /api/dns/dnssec). */
export const QueryDnssec = z
  .object({
    status: z.enum(['secure', 'insecure', 'bogus', 'indeterminate']),
    reason: z.string().nullable(),
    message: z.string(),
    insecure_at: z.string().nullable(),
    bogus_at: z.string().nullable(),
    url: z.string().meta({ description: 'The full validation (the chain of trust, every signature): /api/dns/dnssec with this type' }),
  })
  .meta({ description: 'Our own validation of the RRset from the trust anchor down (RFC 4035 §4.3), independent of the resolver\'s AD flag' })

export const DnsQueryData = DnsRecordsData.extend({
  dnssec: QueryDnssec.nullable().meta({ description: 'With dnssec=true: the verdict on this RRset (or on the proof that it does not exist); null otherwise' }),
})

export const DnsLookupData = z.object({
  domain: z.string(),
  exists: z.boolean(),
  rcode: z.string(),
  authenticated: z.boolean(),
  canonical_name: z.string(),
  records: z.array(DnsRecordData),
  types: z.record(
    z.string(),
    z.object({ rcode: z.string().nullable(), status: AnswerStatus, count: z.number().int(), latency_ms: z.number().nullable(), error: z.string().optional() }),
  ),
  resolver: ResolverInfo.nullable(),
})

export const PropagationData = z.object({
  domain: z.string(),
  type: z.string(),
  consistent: z.boolean().meta({ description: 'Every resolver that answered gave the same records' }),
  resolvers_total: z.number().int(),
  resolvers_answered: z.number().int(),
  results: z.array(
    z.object({
      resolver: z.string(),
      address: z.string(),
      rcode: z.string().nullable(),
      answers: z.array(z.string()),
      ttl: z.number().int().nullable(),
      authenticated: z.boolean().nullable(),
      latency_ms: z.number().nullable(),
      error: z.string().nullable(),
    }),
  ),
  groups: z.array(z.object({ rcode: z.string(), answers: z.array(z.string()), resolvers: z.array(z.string()), count: z.number().int() })),
})

export const ReverseDnsData = z.object({
  ip: z.string(),
  reverse_name: z.string(),
  rcode: z.string(),
  status: AnswerStatus,
  fcrdns: z.boolean().meta({ description: 'Forward-confirmed: some PTR name resolves back to the IP' }),
  ptr: z.array(
    z.object({
      name: z.string(),
      ttl: z.number().int(),
      forward_confirmed: z.boolean(),
      forward_addresses: z.array(z.string()),
      error: z.string().optional(),
    }),
  ),
  resolver: ResolverInfo,
})

/** What every record endpoint's answer shares, said once after each one's own description. */
export const RECORD_ANSWERS =
  'NXDOMAIN and NODATA are 200 answers (`status` says which) and SERVFAIL is a 200 cached 30 s; a resolver that times out or answers REFUSED is a 502 upstream_error. ' +
  'Answers are cached for their smallest TTL, at most 5 minutes.'
