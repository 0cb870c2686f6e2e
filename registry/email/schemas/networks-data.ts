import { z } from 'zod'
import { Severity } from '../../domain/schemas/domain-data.ts'
import { PartErrorData } from '../../network/schemas/routing-data.ts'

// /api/email/networks: the networks a domain's SPF record authorizes to send its
// mail (through every include), and the addresses its mail exchangers receive on,
// each with who holds it, how it is routed, and whether blocklists list it.

/** The stable ids of the findings /api/email/networks can carry (docs/email.md lists them). */
export const EMAIL_NETWORK_FINDING_IDS = [
  'email_networks.spf_listed',
  'email_networks.mx_listed',
  'email_networks.mx_no_starttls',
  'email_networks.spf_rpki_invalid',
  'email_networks.mx_rpki_invalid',
  'email_networks.spf_bogon',
  'email_networks.spf_large_network',
  'email_networks.mx_no_fcrdns',
  'email_networks.spf_unannounced',
] as const

export const EmailNetworkFinding = z.object({
  id: z.enum(EMAIL_NETWORK_FINDING_IDS).meta({ description: 'stable id of the finding' }),
  severity: Severity,
  message: z.string(),
  evidence: z.array(z.string()).meta({ description: 'the networks, hosts and addresses it is about' }),
})

const Routing = {
  bogon: z.boolean().nullable().meta({ description: 'not globally reachable (IANA special-purpose registries)' }),
  route: z.string().nullable().meta({ description: 'the announced route covering the (first) address (RIPEstat)' }),
  origins: z.array(z.number().int()),
  rpki: z.enum(['valid', 'invalid', 'not-found']).nullable().meta({ description: 'RFC 6811 state of that route: invalid when any origin is, valid when every origin is, else not-found' }),
}

export const BlocklistSummary = z
  .object({
    address: z.string().meta({ description: 'the address asked about' }),
    sampled: z.boolean().meta({ description: 'true: the network is larger than one address and only its first address was asked (DNSBLs answer per address)' }),
    listed: z.boolean().nullable().meta({ description: 'some list lists it; null when every list failed' }),
    lists: z.array(z.string()).meta({ description: 'the lists that list it' }),
    errors: z.number().int().meta({ description: 'lists that did not answer' }),
  })
  .nullable()

export const SenderNetwork = z.object({
  network: z.string().meta({ description: 'the authorized network, host bits cleared' }),
  version: z.union([z.literal(4), z.literal(6)]),
  prefix_length: z.number().int(),
  size: z.string().meta({ description: 'how many addresses it holds (a decimal string: IPv6 sizes pass 2^53)' }),
  sources: z.array(z.object({ domain: z.string(), term: z.string(), path: z.array(z.string()).meta({ description: 'the SPF records from the domain down to the one with the term' }) })),
  holder: z.string().nullable().meta({ description: 'the holder of the RDAP network object covering the first address' }),
  allocation: z.string().nullable().meta({ description: 'that object\'s CIDRs' }),
  ...Routing,
  blocklist: BlocklistSummary,
  errors: z.array(PartErrorData),
})

export const MxAddressRow = z.object({
  host: z.string(),
  preference: z.number().int(),
  address: z.string(),
  version: z.union([z.literal(4), z.literal(6)]),
  ptr: z.array(z.string()),
  fcrdns: z.boolean().nullable().meta({ description: 'some PTR name resolves back to the address (/api/email/mx); null when not known' }),
  ...Routing,
  blocklist: BlocklistSummary,
  starttls: z
    .object({ status: z.string(), protocol: z.string().nullable(), trusted: z.boolean().nullable(), name_matches: z.boolean().nullable() })
    .nullable()
    .meta({ description: 'the STARTTLS probe of the host (INFRALENS_SMTP_PORT, as /api/email/health probes it); null when not probed' }),
  errors: z.array(PartErrorData),
})

export const EmailNetworksData = z.object({
  domain: z.string(),
  spf: z
    .object({ status: z.string(), record: z.string().nullable(), verdict: z.string(), lookups: z.number().int() })
    .nullable()
    .meta({ description: 'the SPF record read (/api/email/spf); null when it could not be' }),
  networks: z.array(SenderNetwork).meta({ description: 'every network the SPF tree authorizes (ip4, ip6, and the addresses of a and mx terms with their prefix lengths), pass qualifier only' }),
  mx: z.array(MxAddressRow).meta({ description: 'one row per MX host and address' }),
  findings: z.array(EmailNetworkFinding).meta({ description: 'most severe first' }),
  errors: z.array(PartErrorData).meta({ description: 'parts that failed (spf, mx, starttls); the rest stands' }),
  skipped: z.array(z.object({ part: z.string(), reason: z.string() })),
})
