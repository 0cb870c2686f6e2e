import { z } from 'zod'
import { DECODED_TYPES, decodedType } from '../../../runtime/net/dns/dns-decoded-types.ts'
import type { DecodedType } from '../../../runtime/net/dns/dns-decoded-types.ts'

// The `type` query parameter of the DNS endpoints that take any record type: one the
// service's DNS client decodes into fields (runtime/net/dns/dns-decoded-types.ts),
// in any case. Any other is a 400 that lists the ones it can ask for, instead of an
// answer of opaque hex or a silent A.

const LIST = DECODED_TYPES.join(', ')

export function recordTypeParam(options: { default: DecodedType; description: string }) {
  return z
    .string()
    .default(options.default)
    .transform((value, ctx) => {
      const type = decodedType(value)
      if (type === undefined) {
        ctx.addIssue({ code: 'custom', message: `"${value.slice(0, 40)}" is not a record type this service can ask for and decode; use one of ${LIST}` })
        return z.NEVER
      }
      return type
    })
    .meta({ description: `${options.description}: one of ${LIST} (any case)`, example: options.default })
}
