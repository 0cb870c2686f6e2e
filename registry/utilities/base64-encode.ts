import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { queryEnum } from '../../runtime/params.ts'
import { BINARY_ENCODINGS } from './hash.ts'

export default defineEndpoint({
  name: 'utilities.base64-encode',
  tag: 'utilities',
  method: 'GET',
  path: '/api/base64/encode',
  summary: 'Base64 (RFC 4648 §4) or base64url (§5) of `input`',
  description:
    'Encodes input, read as UTF-8 text, hex or base64 bytes (input_encoding), with the standard alphabet and padding or the URL-safe alphabet without (variant), and says how many bytes were encoded. Input up to 65536 characters; computed locally, never cached.',
  params: z.object({
    input: z.string({ error: 'is required: the text to encode' }).max(65_536, 'must be at most 65536 characters'),
    input_encoding: queryEnum(BINARY_ENCODINGS, { default: 'utf8', description: 'how `input` is read: utf8 text, hex or base64 bytes' }),
    variant: queryEnum(['standard', 'url'], { default: 'standard', description: 'standard alphabet with padding, or URL-safe without' }),
  }),
  data: z.object({ output: z.string(), variant: z.string(), input_bytes: z.number().int() }),
  cache: false,
  cost: 1,
  example: { input: 'hello world' },
})
