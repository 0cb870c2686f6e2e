import { z } from 'zod'
import { WebFindingData } from '../../web/schemas/web-findings.ts'

export const SecurityTxtData = z.object({
  domain: z.string(),
  found: z.boolean(),
  url: z.string().nullable().meta({ description: 'Where the file was found (after redirects)' }),
  location: z.enum(['well_known', 'legacy']).nullable().meta({ description: 'well_known: /.well-known/security.txt; legacy: /security.txt' }),
  status: z.number().int().nullable(),
  content_type: z.string().nullable(),
  valid: z.boolean().meta({ description: 'Found, with Contact and a valid unexpired Expires, and no medium or worse finding' }),
  signed: z.boolean(),
  signature_verified: z.null().meta({ description: 'Always null: there is no key to verify the signature with' }),
  contact: z.array(z.string()).meta({ description: 'In the order given (the order of preference)' }),
  expires: z.string().nullable(),
  expires_in_days: z.number().int().nullable(),
  expired: z.boolean().nullable(),
  encryption: z.array(z.string()),
  acknowledgments: z.array(z.string()),
  canonical: z.array(z.string()),
  policy: z.array(z.string()),
  hiring: z.array(z.string()),
  preferred_languages: z.array(z.string()),
  csaf: z.array(z.string()),
  unknown_fields: z.array(z.string()),
  fields: z.array(z.object({ name: z.string(), value: z.string(), line: z.number().int() })),
  findings: z.array(WebFindingData),
  attempts: z.array(
    z.object({
      url: z.string(),
      final_url: z.string().nullable(),
      status: z.number().int().nullable(),
      outcome: z.string().meta({ description: 'found, not_found (4xx), http_error, not_text (HTML or empty), or the redirect chain stop' }),
    }),
  ),
})
