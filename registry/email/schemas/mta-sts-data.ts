import { z } from 'zod'
import { FindingList } from './findings.ts'

export const MtaStsSchema = z.object({
  record: z.object({
    name: z.string(),
    status: z.enum(['found', 'none', 'multiple', 'invalid', 'dns_error']),
    text: z.string().nullable(),
    id: z.string().nullable(),
    error: z.string().nullable(),
  }),
  policy: z
    .object({
      url: z.string(),
      fetched: z.boolean(),
      http_status: z.number().int().nullable(),
      content_type: z.string().nullable(),
      error: z.string().nullable(),
      text: z.string().nullable(),
      version: z.string().nullable(),
      mode: z.enum(['enforce', 'testing', 'none']).nullable(),
      max_age: z.number().int().nullable(),
      mx: z.array(z.string()),
      problems: z.array(z.string()),
    })
    .nullable()
    .meta({ description: 'https://mta-sts.<domain>/.well-known/mta-sts.txt; null when neither the TXT record nor the mta-sts host exists' }),
  mx_coverage: z.array(z.object({ host: z.string(), pattern: z.string().nullable() })).meta({ description: 'Each MX host and the policy pattern that covers it (null: not covered)' }),
  findings: FindingList,
})

export type MtaStsShape = z.infer<typeof MtaStsSchema>
