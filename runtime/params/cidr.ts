import { z } from 'zod'
import { formatAddress } from '../ip/format.ts'
import { parseCidr } from '../ip/parse-cidr.ts'

/**
 * A CIDR block parameter, IPv4 or IPv6 (`10.1.2.3/8`, `2001:db8::/32`), checked by
 * the IP library's parser so a bad block is a 400 with its reason ("the prefix
 * length 33 is out of range; IPv4 prefix lengths are 0-32"). Normalized to the
 * canonical address text and the length, host bits kept: the resolver reports
 * them rather than refusing them. A string, not the parsed object, so the input
 * stays JSON (cache keys, logs).
 */
export const CidrParam = z
  .string()
  .transform((value, ctx) => {
    const parsed = parseCidr(value.trim())
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.error.reason })
      return z.NEVER
    }
    const { version, address, prefixLength } = parsed.value
    return `${formatAddress(version, address)}/${prefixLength}`
  })
  .meta({
    description: 'CIDR block, IPv4 or IPv6 (host bits allowed); the "/" may be sent as %2F',
    example: '192.0.2.0/24',
  })

/**
 * An offset into an address block: a decimal string, because an IPv6 block has up
 * to 2^128 addresses and offsets past 2^53 must stay exact.
 */
export const BlockOffsetParam = z
  .string()
  .regex(/^[0-9]{1,40}$/, 'must be a whole decimal number >= 0 (at most 40 digits; IPv6 blocks hold up to 2^128 addresses)')
  .default('0')
  .meta({ description: 'addresses to skip, a decimal integer (may exceed 2^53 for IPv6 blocks)', example: '256' })
