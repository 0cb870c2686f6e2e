import { z } from 'zod'
import { AnswerStatus } from '../../dns/schemas/dns-data.ts'
import { OperatorFindingData } from '../../dns/schemas/operator-findings.ts'

// Shape of /api/domain/delegation: every name server of the zone's NS set, asked
// directly at each of its addresses, and findings over them.

export const DelegationServer = z.object({
  name: z.string().meta({ description: 'The name server (from the NS set)' }),
  address: z.string(),
  status: z.enum(['ok', 'lame', 'unreachable', 'refused_target']).meta({
    description: 'ok: answers authoritatively; lame: answers, but not authoritatively for the zone (REFUSED, no AA, an error rcode); unreachable: no answer over UDP; refused_target: an address the service never connects to',
  }),
  rcode: z.string().nullable().meta({ description: 'Its rcode for the zone\'s SOA, asked without recursion' }),
  authoritative: z.boolean().nullable().meta({ description: 'AA flag on that answer' }),
  serial: z.number().int().nullable().meta({ description: 'The SOA serial it serves' }),
  ns: z.array(z.string()).nullable().meta({ description: 'The NS set it serves for the zone' }),
  tcp: z.boolean().nullable().meta({ description: 'It answers the SOA question over TCP too' }),
  edns: z.boolean().nullable().meta({ description: 'It answers the SOA question with an OPT record (EDNS0) and the same rcode when the query carries one; false: FORMERR, no OPT or no answer' }),
  recursion_available: z.boolean().nullable().meta({ description: 'RA set in its answer to a query with RD: it offers recursion to us' }),
  axfr_allowed: z.boolean().nullable().meta({ description: 'It answered an AXFR request over TCP with the zone' }),
  asn: z.number().int().nullable().meta({ description: 'The AS of the address in the bundled offline data (as /api/ip gives it); null when the data has none' }),
  latency_ms: z.number().nullable(),
  error: z.string().nullable(),
})

const DsRow = z.object({ key_tag: z.number().int().nullable(), algorithm: z.number().int().nullable(), digest_type: z.number().int().nullable(), digest: z.string().nullable().meta({ description: 'Lowercase hex' }) })

export const DelegationDnssec = z.object({
  ds: z.array(DsRow.extend({ matches_key: z.boolean().nullable().meta({ description: 'It names a DNSKEY the zone publishes (key tag, algorithm and digest); null when the DNSKEY RRset could not be read' }) })).meta({ description: 'The DS RRset at the parent, through the resolver' }),
  dnskey_tags: z.array(z.number().int()).meta({ description: 'Key tags of the zone\'s DNSKEY RRset, through the resolver' }),
  rdap: z
    .object({
      status: z.enum(['ok', 'unavailable']),
      delegation_signed: z.boolean().nullable(),
      ds: z.array(DsRow).meta({ description: 'secureDNS.dsData of the registry\'s RDAP domain object' }),
      error: z.string().nullable(),
    })
    .nullable()
    .meta({ description: 'The registry\'s secureDNS (RDAP, as /api/domain/whois reads it); asked only when the parent publishes DS' }),
  error: z.string().nullable().meta({ description: 'The DS or DNSKEY question the resolver failed' }),
})

export const DelegationData = z.object({
  domain: z.string(),
  ns: z.object({
    status: AnswerStatus,
    names: z.array(z.string()).meta({ description: 'The NS set the resolver returns for the zone' }),
  }),
  parent: z
    .object({
      zone: z.string().meta({ description: 'The closest enclosing zone with an NS set' }),
      server: z.string().nullable().meta({ description: 'The parent server whose referral is shown, name/address' }),
      ns: z.array(z.string()).nullable().meta({ description: 'The NS set the parent delegates to' }),
      glue: z.array(z.object({ name: z.string(), addresses: z.array(z.string()) })).meta({ description: 'The addresses the referral carries for each of those names' }),
      servers: z
        .array(
          z.object({
            name: z.string(),
            address: z.string(),
            ns: z.array(z.string()).nullable().meta({ description: 'The NS set of its referral; null when it gave none' }),
            glue: z.array(z.object({ name: z.string(), addresses: z.array(z.string()) })),
            error: z.string().nullable(),
          }),
        )
        .meta({ description: 'Every parent server address asked (IPv4 and IPv6, up to 8), each with its own referral' }),
      error: z.string().nullable().meta({ description: 'Why no referral was read (each parent server tried, and how it failed)' }),
    })
    .nullable()
    .meta({ description: 'The delegation as the parent publishes it, asked of the parent\'s servers directly (IPv4 and IPv6); null for a top-level name' }),
  servers: z.array(DelegationServer).meta({ description: 'One row per name server address (IPv4 and IPv6), each asked directly' }),
  serials: z.array(z.number().int()).meta({ description: 'The distinct SOA serials the servers gave' }),
  dnssec: DelegationDnssec.nullable().meta({ description: 'The parent\'s DS against the zone\'s DNSKEY and the registry\'s RDAP secureDNS; null without NS records' }),
  findings: z.array(OperatorFindingData),
})
