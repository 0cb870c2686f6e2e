import { z } from 'zod'

// Shapes of the data category's answers (OpenAPI and tests). Every answer names
// where its table comes from in `source`.

export const SourceData = z.object({
  name: z.string(),
  url: z.string().nullable(),
  version: z.string().nullable().meta({ description: 'version or date of the copy the table was built from' }),
  licence: z.string().nullable(),
  notes: z.array(z.string()),
})

export const BogonsData = z.object({
  sources: z.array(SourceData),
  counts: z.object({ ipv4: z.number().int(), ipv6: z.number().int(), bogon: z.number().int() }),
  prefixes: z.array(
    z.object({
      prefix: z.string(),
      version: z.union([z.literal(4), z.literal(6)]),
      name: z.string(),
      class: z.string(),
      registry: z.enum(['special-purpose', 'address-space']),
      bogon: z.boolean().nullable().meta({
        description: 'true: never a public source or destination; false: special-purpose but globally reachable; null: depends on the IPv4 address it carries (6to4, Teredo, NAT64) or the entry is terminated',
      }),
      reason: z.string(),
      rfcs: z.array(z.string()),
    }),
  ),
})

export const DnsRecordTypesData = z.object({
  source: SourceData,
  count: z.number().int(),
  types: z.array(
    z.object({
      type: z.string(),
      value: z.number().int(),
      meaning: z.string(),
      kind: z.enum(['data', 'query', 'meta']).meta({ description: 'RFC 6895 §3.1: data TYPE, QTYPE (questions only), or meta-TYPE' }),
      status: z.enum(['active', 'experimental', 'obsolete', 'deprecated', 'reserved']),
      references: z.array(z.string()),
    }),
  ),
  ranges: z.array(z.object({ from: z.number().int(), to: z.number().int(), assignment: z.string() })),
})

export const HttpStatusCodesData = z.object({
  source: SourceData,
  count: z.number().int(),
  codes: z.array(
    z.object({
      code: z.number().int(),
      reason: z.string().meta({ description: "IANA registry's description" }),
      node_reason: z.string().nullable().meta({ description: "node:http STATUS_CODES text, where Node knows the code" }),
      class: z.enum(['informational', 'successful', 'redirection', 'client-error', 'server-error']),
      registered: z.boolean().meta({ description: 'in the IANA registry (false: only Node knows it)' }),
      status: z.enum(['active', 'unused', 'obsoleted', 'temporary', 'unregistered']),
      rfc: z.string().nullable(),
      section: z.string().nullable(),
    }),
  ),
})

export const PortsData = z.object({
  source: SourceData,
  count: z.number().int(),
  ports: z.array(
    z.object({
      service: z.string(),
      port: z.number().int(),
      protocols: z.array(z.string()),
      aliases: z.array(z.string()),
      description: z.string().nullable(),
    }),
  ),
})

export const TLD_TYPES = ['generic', 'country-code', 'sponsored', 'infrastructure', 'generic-restricted', 'test', 'special-use'] as const

export const TldsData = z.object({
  sources: z.array(SourceData),
  classification: z.array(z.string()).meta({ description: 'the rules that gave each TLD its type, in the order they apply' }),
  counts: z.record(z.string(), z.number().int()),
  tlds: z.array(
    z.object({
      tld: z.string().meta({ description: 'ASCII (punycode) form' }),
      unicode: z.string(),
      type: z.enum(TLD_TYPES),
      idn: z.boolean(),
      country: z.string().nullable().meta({ description: 'the two-letter code a ccTLD stands for (UK for .uk)' }),
      in_psl: z.boolean(),
      in_root_zone: z.boolean(),
    }),
  ),
})

export const ResolversData = z.object({
  source: SourceData,
  count: z.number().int(),
  resolvers: z.array(z.object({ name: z.string(), address: z.string(), port: z.number().int(), version: z.union([z.literal(4), z.literal(6)]) })),
})
