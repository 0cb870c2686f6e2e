import { z } from 'zod'
import { FindingList } from './findings.ts'

const Disposition = z.enum(['none', 'quarantine', 'reject'])

export const DmarcDestinationSchema = z.object({
  type: z.enum(['rua', 'ruf']),
  uri: z.string(),
  scheme: z.string().nullable(),
  address: z.string().nullable(),
  domain: z.string().nullable(),
  size_limit: z.string().nullable(),
  external: z.boolean().meta({ description: 'The destination belongs to another organizational domain' }),
  authorization: z.enum(['not_needed', 'authorized', 'unauthorized', 'dns_error', 'unsupported_scheme', 'invalid']).meta({
    description: 'RFC 7489 §7.1: an external destination must publish v=DMARC1 at <policy domain>._report._dmarc.<destination>',
  }),
  authorization_name: z.string().nullable(),
  error: z.string().nullable(),
})

export const DmarcData = z.object({
  domain: z.string(),
  organizational_domain: z.string().meta({ description: 'By the Public Suffix List (private section included)' }),
  status: z.enum(['found', 'none', 'multiple', 'dns_error']),
  source: z.enum(['domain', 'organizational_domain']).nullable().meta({ description: 'Where the policy was found: the domain itself, or its organizational domain (RFC 7489 §6.6.3 fallback)' }),
  record_domain: z.string().nullable(),
  record: z.string().nullable(),
  records: z.array(z.string()),
  valid: z.boolean().meta({ description: 'A record was found and every tag in it is well-formed (unknown tags aside)' }),
  tags: z.array(z.object({ name: z.string(), value: z.string(), known: z.boolean() })),
  policy: z
    .object({
      p: Disposition.nullable(),
      sp: Disposition.nullable(),
      np: Disposition.nullable(),
      pct: z.number().int(),
      adkim: z.enum(['r', 's']),
      aspf: z.enum(['r', 's']),
      fo: z.array(z.string()),
      rf: z.array(z.string()),
      ri: z.number().int(),
      psd: z.enum(['y', 'n', 'u']),
      t: z.enum(['y', 'n']),
    })
    .nullable()
    .meta({ description: 'Effective values: defaults applied, sp inherited from p, np from sp' }),
  applied_policy: Disposition.nullable().meta({ description: 'What receivers apply to mail from this domain (p, or sp when inherited by a subdomain), before pct/t' }),
  report_destinations: z.array(DmarcDestinationSchema),
  findings: FindingList,
})

export type DmarcDataShape = z.infer<typeof DmarcData>
