import { z } from 'zod'

// ASN input as people write it: "AS15169", "as15169", "15169", or asdot
// "1.10" (RFC 5396) for 4-byte numbers. Normalized to the number.

export function parseAsn(text: string): number | string {
  const t = text.trim()
  const plain = /^(?:as)?(\d{1,10})$/i.exec(t)
  const dotted = /^(?:as)?(\d{1,5})\.(\d{1,5})$/i.exec(t)
  let n: number
  if (plain) n = Number(plain[1])
  else if (dotted) {
    const hi = Number(dotted[1])
    const lo = Number(dotted[2])
    if (hi > 65_535 || lo > 65_535) return `"${text}" is not a valid asdot ASN: both halves must be at most 65535`
    n = hi * 65_536 + lo
  } else return `"${text}" is not an AS number; write it like AS15169 or 15169`
  if (n > 4_294_967_295) return `${n} is larger than the largest AS number (4294967295)`
  return n
}

export const AsnParam = z
  .string()
  .transform((value, ctx) => {
    const result = parseAsn(value)
    if (typeof result === 'string') {
      ctx.addIssue({ code: 'custom', message: result })
      return z.NEVER
    }
    return result
  })
  .meta({ description: 'Autonomous System number: AS15169, 15169 or asdot 1.10', example: 'AS13335' })
