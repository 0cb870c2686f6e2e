import { z } from 'zod'
import { IpAddressParam } from '../../../runtime/params/ip-address.ts'
import { DomainName } from '../../../runtime/params/domain.ts'
import { FindingList } from './findings.ts'

// Shapes of the SPF endpoints (/api/email/spf, /api/dns/spf) and the SPF part of
// health/diagnose. The include tree is a flat list in evaluation order with
// parent ids (OpenAPI schemas cannot recurse inline, and a flat list pages, sorts
// and becomes CSV rows like any other).

export const SpfParams = z.object({
  domain: DomainName,
  ip: IpAddressParam.optional().meta({ description: 'Evaluate check_host() for this client IP (RFC 7208); sender and helo need it' }),
  sender: z
    .string()
    .max(320)
    .optional()
    .meta({
      description:
        'MAIL FROM address, at <domain> (%{s}, %{l}, %{o}); default postmaster@<domain>. Empty (or "<>") is the null reverse-path, checked as postmaster@<helo> (RFC 7208 §2.4)',
    }),
  helo: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({ description: 'HELO/EHLO name (%{h}); default <domain>. Without sender, the HELO identity is checked (RFC 7208 §2.3), so it must be <domain>' }),
})

const Qualifier = z.enum(['+', '-', '~', '?'])
const MatchResult = z.enum(['pass', 'fail', 'softfail', 'neutral'])
export const SpfResultSchema = z.enum(['pass', 'fail', 'softfail', 'neutral', 'none', 'permerror', 'temperror'])

export const SpfTermSchema = z.object({
  raw: z.string(),
  type: z.enum(['mechanism', 'modifier']),
  name: z.string(),
  qualifier: Qualifier.nullable(),
  result_on_match: MatchResult.nullable(),
  value: z.string().nullable(),
  cidr4: z.number().int().nullable(),
  cidr6: z.number().int().nullable(),
  macros: z.boolean(),
  counts_lookup: z.boolean().meta({ description: 'Counts against the limit of 10 DNS lookups' }),
  lookup_number: z.number().int().nullable().meta({ description: 'Position in the lookup count when nothing matches earlier; 11 and up is a permerror' }),
  void: z.boolean().nullable().meta({ description: 'The lookup found no records (void lookup); null when not resolved' }),
  addresses: z.array(z.string()).nullable(),
  mx_hosts: z.array(z.string()).nullable(),
  ignored: z.boolean().meta({ description: 'Never evaluated (after "all", or redirect beside "all")' }),
  note: z.string().nullable(),
})

export const SpfNodeSchema = z.object({
  id: z.number().int(),
  parent_id: z.number().int().nullable(),
  depth: z.number().int(),
  domain: z.string(),
  via: z.enum(['root', 'include', 'redirect']),
  via_term: z.string().nullable(),
  status: z.enum(['ok', 'none', 'multiple', 'syntax_error', 'dns_error', 'loop', 'invalid_name', 'unexpanded_macro', 'not_followed']),
  error: z.string().nullable(),
  record: z.string().nullable(),
  strings: z.array(z.string()).meta({ description: 'The TXT character-strings, joined with nothing between them to form the record' }),
  conflicting: z.array(z.string()),
  terms: z.array(SpfTermSchema),
  syntax_errors: z.array(z.object({ term: z.string(), message: z.string() })),
  lookups: z.number().int(),
  void_lookups: z.number().int(),
  subtree_lookups: z.number().int(),
  response_bytes: z.number().int().nullable(),
})

export const SpfEvaluationSchema = z.object({
  ip: z.string(),
  identity: z.enum(['mail_from', 'helo']).meta({ description: 'mail_from: the MAIL FROM identity (postmaster@<helo> for a null sender); helo: the HELO identity (helo given without sender)' }),
  sender: z.string(),
  helo: z.string(),
  result: SpfResultSchema,
  explanation: z.string().nullable(),
  matched: z.object({ domain: z.string(), term: z.string() }).nullable(),
  reason: z.string().nullable(),
  dns_lookups: z.number().int(),
  void_lookups: z.number().int(),
  trace: z.array(
    z.object({
      depth: z.number().int(),
      domain: z.string(),
      term: z.string(),
      outcome: z.enum(['match', 'no_match', 'error']),
      detail: z.string().nullable(),
    }),
  ),
})

export const SpfData = z.object({
  domain: z.string(),
  status: z.enum(['found', 'none', 'multiple', 'dns_error']),
  record: z.string().nullable(),
  verdict: z.enum(['valid', 'none', 'permerror', 'temperror']).meta({
    description: 'What any receiver gets regardless of the client: valid, none (no record), permerror (broken for mail not matched before the problem), temperror (a DNS failure)',
  }),
  verdict_reason: z.string().nullable(),
  all: z.string().nullable().meta({ description: 'The "all" term that decides for unlisted senders (following redirect), e.g. "-all"' }),
  lookups: z.object({
    count: z.number().int(),
    limit: z.number().int(),
    void_count: z.number().int(),
    void_limit: z.number().int(),
    over_limit: z.boolean(),
    first_over_limit: z.string().nullable().meta({ description: 'The term that makes the 11th lookup' }),
  }),
  tree: z.array(SpfNodeSchema).meta({ description: 'The record and every record it includes or redirects to, in evaluation order; parent_id links them' }),
  evaluation: SpfEvaluationSchema.nullable().meta({ description: 'check_host() for ?ip= (null without)' }),
  findings: FindingList,
})

export type SpfDataShape = z.infer<typeof SpfData>
