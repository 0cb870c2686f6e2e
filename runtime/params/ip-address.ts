import { z } from 'zod'
import { formatIp } from '../ip/format.ts'
import { parseIp } from '../ip/parse.ts'

/**
 * An IP address parameter: strict dotted-quad IPv4 (no 127.1, 0x7f.0.0.1 or
 * 2130706433) or IPv6 (brackets allowed), normalized to its canonical text.
 */
export const IpAddressParam = z
  .string()
  .transform((value, ctx) => {
    const parsed = parseIp(value.trim())
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.error.reason })
      return z.NEVER
    }
    return formatIp(parsed.value)
  })
  .meta({ description: 'IPv4 (dotted quad) or IPv6 address', example: '8.8.8.8' })
