import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'utilities.base64-decode',
  tag: 'utilities',
  method: 'GET',
  path: '/api/base64/decode',
  summary: 'Decodes base64 or base64url `input`; text when it is UTF-8, hex always',
  description:
    'Decodes standard or URL-safe base64, whichever alphabet the input uses (reported as `variant`; whitespace is ignored, padding optional), and returns the bytes as hex and, when they are valid UTF-8, as text. Characters outside the alphabet or a truncated value are a 400 saying which. Input up to 131072 characters; computed locally, never cached.',
  params: z.object({
    input: z.string({ error: 'is required: the base64 text to decode' }).max(131_072, 'must be at most 131072 characters'),
  }),
  data: z.object({
    text: z.string().nullable(),
    valid_utf8: z.boolean(),
    hex: z.string(),
    bytes: z.number().int(),
    variant: z.enum(['standard', 'url']),
  }),
  cache: false,
  cost: 1,
  example: { input: 'aGVsbG8gd29ybGQ=' },
})
