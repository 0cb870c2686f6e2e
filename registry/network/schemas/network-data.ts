import { z } from 'zod'

// Shapes of the IP and CIDR endpoints' data (OpenAPI and tests).

const Flag = z.boolean().nullable().meta({ description: 'registry value; null where the registry says N/A or leaves it empty' })

export const SpecialPurposeData = z.object({
  prefix: z.string(),
  name: z.string(),
  class: z.string().meta({ description: 'short class: private, loopback, cgnat, documentation, 6to4, teredo, nat64, ...' }),
  rfcs: z.array(z.string()),
  spec: z.string(),
  allocated: z.string(),
  terminated: z.string().nullable(),
  source: Flag,
  destination: Flag,
  forwardable: Flag,
  globally_reachable: Flag,
  reserved_by_protocol: Flag,
  notes: z.array(z.string()),
})

export const ClassificationData = z.object({
  class: z.string().meta({ description: 'special-purpose class, else public, multicast, reserved, or mixed for a block spanning several' }),
  name: z.string(),
  prefix: z.string().nullable(),
  registry: z.enum(['special-purpose', 'address-space']).nullable(),
})

export const BogonData = z.object({
  bogon: z.boolean(),
  prefix: z.string().nullable(),
  reason: z.string(),
})

export const DataSourceData = z.object({
  name: z.string(),
  version: z.string().nullable(),
  date: z.string().meta({ description: 'when the data was generated, YYYY-MM-DD' }),
  age_days: z.number().int(),
  licence: z.string(),
  attribution: z.string(),
  url: z.string(),
  notes: z.array(z.string()),
})

export const EmbeddedIpv4Data = z
  .object({
    kind: z.enum(['mapped', 'compatible', 'nat64', '6to4', 'teredo']),
    prefix: z.string(),
    ipv4: z.string(),
    rfc: z.string(),
    deprecated: z.boolean().optional(),
    server: z.string().optional().meta({ description: 'Teredo server' }),
    client_port: z.number().int().optional().meta({ description: 'Teredo client port, de-obfuscated' }),
    flags: z.number().int().optional(),
    cone: z.boolean().optional(),
  })
  .nullable()

export const IpData = z.object({
  ip: z.string().meta({ description: 'canonical form: dotted quad, or RFC 5952 for IPv6' }),
  version: z.union([z.literal(4), z.literal(6)]),
  compressed: z.string(),
  expanded: z.string().meta({ description: 'IPv6: all 32 hex digits in 8 groups; IPv4: the dotted quad' }),
  mixed: z.string().nullable().meta({ description: 'IPv6 with a dotted IPv4 tail when it is IPv4-mapped or -translated' }),
  decimal: z.string(),
  hex: z.string(),
  binary: z.string(),
  reverse_pointer: z.string(),
  ipv4_mapped: z.string().nullable().meta({ description: 'IPv4 only: its ::ffff:a.b.c.d form' }),
  embedded_ipv4: EmbeddedIpv4Data,
  classification: ClassificationData,
  special_purpose: z.array(SpecialPurposeData).meta({ description: 'every special-purpose registry entry containing the address, most specific first' }),
  bogon: BogonData,
  asn: z
    .object({
      number: z.number().int(),
      name: z.string(),
      range: z.object({ start: z.string(), end: z.string() }),
      looked_up: z.string().meta({ description: 'the address looked up: the IP, or the IPv4 address it carries' }),
    })
    .nullable(),
  country: z
    .object({ code: z.string(), looked_up: z.string() })
    .nullable()
    .meta({ description: 'ISO 3166-1 alpha-2 country of registration (not a geolocation)' }),
  data_source: z.object({ asn: DataSourceData, country: DataSourceData }),
})

export const BitLayoutData = z.object({
  total_bits: z.number().int(),
  network_bits: z.number().int(),
  host_bits: z.number().int(),
  network: z.string(),
  host: z.string(),
  annotated: z.string().meta({ description: 'all bits, octets or groups apart, "|" at the prefix boundary' }),
})

export const CidrAnalyzeData = z.object({
  cidr: z.string().meta({ description: 'canonical block, host bits cleared' }),
  input: z.string().meta({ description: 'the block as given, canonical address text, host bits kept' }),
  version: z.union([z.literal(4), z.literal(6)]),
  prefix_length: z.number().int(),
  host_bits_set: z.boolean(),
  network: z.string(),
  broadcast: z.string().nullable().meta({ description: 'IPv4 /0-/30 only' }),
  first_address: z.string(),
  last_address: z.string(),
  first_usable: z.string(),
  last_usable: z.string(),
  netmask: z.string(),
  wildcard: z.string(),
  total_addresses: z.string().meta({ description: 'exact decimal (IPv6 counts exceed 2^53)' }),
  usable_hosts: z.string(),
  usable_rule: z.string(),
  usable_note: z.string(),
  bits: BitLayoutData,
  historic_class: z.enum(['A', 'B', 'C', 'D', 'E']).nullable(),
  classification: ClassificationData,
  special_purpose: z.array(SpecialPurposeData).meta({ description: 'registry entries containing the whole block, most specific first' }),
  special_purpose_within: z
    .array(z.object({ prefix: z.string(), name: z.string(), class: z.string() }))
    .meta({ description: 'registry entries strictly inside the block' }),
})

export const CidrExpandData = z.object({
  cidr: z.string(),
  version: z.union([z.literal(4), z.literal(6)]),
  total: z.string().meta({ description: 'addresses in the block, exact decimal' }),
  offset: z.string(),
  limit: z.number().int(),
  count: z.number().int(),
  addresses: z.array(z.string()),
  next_offset: z.string().nullable(),
})

export const CidrSummarizeData = z.object({
  ipv4: z.array(z.string()).meta({ description: 'fewest IPv4 blocks covering exactly the input, in address order' }),
  ipv6: z.array(z.string()),
  invalid: z.array(z.object({ index: z.number().int(), input: z.string(), reason: z.string() })),
  stats: z.object({
    entries: z.number().int(),
    valid: z.number().int(),
    invalid: z.number().int(),
    ipv4_input: z.number().int(),
    ipv6_input: z.number().int(),
    ipv4_output: z.number().int(),
    ipv6_output: z.number().int(),
    host_bits_cleared: z.number().int(),
    ipv4_addresses: z.string(),
    ipv6_addresses: z.string(),
  }),
})
