import { z } from 'zod'
import { DomainName } from '../../../runtime/params/domain.ts'
import { FindingList } from './findings.ts'

/** How many selectors ?selectors= may name (the common ones are tried besides them). */
export const MAX_USER_SELECTORS = 20

const SELECTOR = /^[A-Za-z0-9_-]{1,63}(?:\.[A-Za-z0-9_-]{1,63})*$/

/** ?selectors=a,b: extra selectors to try besides the common ones. */
export const SelectorsParam = z
  .string()
  .transform((value, ctx) => {
    const list = [...new Set(value.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== ''))]
    if (list.length > MAX_USER_SELECTORS) {
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_USER_SELECTORS} selectors` })
      return z.NEVER
    }
    const bad = list.find((s) => !SELECTOR.test(s))
    if (bad !== undefined) {
      ctx.addIssue({ code: 'custom', message: `"${bad}" is not a selector (letters, digits, "-", "_", dots between labels)` })
      return z.NEVER
    }
    return list
  })
  .optional()
  .meta({ description: `Comma-separated DKIM selectors to try besides the common ones (at most ${MAX_USER_SELECTORS}); the s= tag of a DKIM-Signature names it` })

export const DkimParams = z.object({ domain: DomainName, selectors: SelectorsParam })

export const DkimKeySchema = z.object({
  selector: z.string(),
  name: z.string(),
  source: z.enum(['common', 'requested']),
  status: z.enum(['found', 'not_dkim', 'dns_error', 'not_found']),
  record: z.string().nullable(),
  cname: z.array(z.string()).meta({ description: 'CNAMEs followed to the key (providers that host keys delegate this way)' }),
  version: z.string().nullable(),
  key_type: z.string().nullable().meta({ description: 'k= as published (rsa by default)' }),
  public_key_type: z.string().nullable().meta({ description: 'Read from the key itself: rsa, ed25519' }),
  key_bits: z.number().int().nullable(),
  hash_algorithms: z.array(z.string()).nullable(),
  service_types: z.array(z.string()),
  flags: z.array(z.string()),
  revoked: z.boolean().meta({ description: 'Empty p=: the key was withdrawn' }),
  testing: z.boolean().meta({ description: 't=y: verifiers must not treat failures differently from unsigned mail' }),
  strength: z.enum(['strong', 'acceptable', 'weak', 'broken', 'unknown']).meta({ description: 'strong: RSA >= 2048 or Ed25519; acceptable: RSA 1024-2047 (warned); weak: RSA < 1024; broken: undecodable' }),
  problems: z.array(z.string()),
  error: z.string().nullable(),
})

export const DkimData = z.object({
  domain: z.string(),
  selectors_checked: z.array(z.string()),
  found: z.number().int().meta({ description: 'Selectors with a usable (not revoked, decodable) key' }),
  keys: z.array(DkimKeySchema).meta({ description: 'Every selector that answered with a record, failed, or was asked for explicitly' }),
  findings: FindingList,
})

export type DkimDataShape = z.infer<typeof DkimData>
export type DkimKeyShape = z.infer<typeof DkimKeySchema>
