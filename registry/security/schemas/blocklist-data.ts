import { z } from 'zod'

const ListRow = z.object({
  zone: z.string(),
  name: z.string().meta({ description: "The list's name (the zone for lists without a known profile)" }),
  query: z.string().meta({ description: 'The DNS name asked' }),
  queried: z.string().meta({ description: 'The IP or domain this row is about' }),
  status: z.enum(['listed', 'not_listed', 'error', 'unsupported']).meta({
    description: 'error: the list did not answer, or answered that it refuses our resolver (e.g. Spamhaus 127.255.255.254) — neither listed nor clean',
  }),
  return_codes: z.array(z.string()),
  meanings: z.array(z.object({ code: z.string(), meaning: z.string() })).meta({ description: 'Each return code decoded per list' }),
  txt: z.array(z.string()).meta({ description: "The list's TXT reason, when listed" }),
  error: z.string().nullable(),
  latency_ms: z.number().nullable(),
  ttl: z.number().int().nullable(),
})

const summary = {
  listed: z.boolean().meta({ description: 'At least one list lists it' }),
  listed_count: z.number().int(),
  clean_count: z.number().int(),
  error_count: z.number().int(),
  lists: z.array(ListRow),
}

export const IpBlocklistData = z.object({
  ip: z.string(),
  version: z.union([z.literal(4), z.literal(6)]),
  reversed: z.string().meta({ description: 'The address as DNSBLs are asked (RFC 5782): reversed octets or nibbles' }),
  ...summary,
})

export const DomainBlocklistData = z.object({
  domain: z.string(),
  registrable_domain: z.string().nullable().meta({ description: 'The domain under its public suffix, which URI lists mostly carry' }),
  names_checked: z.array(z.string()),
  ...summary,
})
