import { z } from 'zod'
import { parseIp } from '../../../runtime/ip/parse.ts'
import { reversePointer } from '../../../runtime/ip/reverse-pointer.ts'
import { normalizeDomain } from '../../../runtime/params/domain.ts'

// The name of a PTR question: a reverse name as DNS has it (1.2.0.192.in-addr.arpa),
// or, since that is what people have at hand, the IP address itself, turned into its
// in-addr.arpa / ip6.arpa name (RFC 1035 §3.5, RFC 3596 §2.5).

export const ReverseName = z
  .string()
  .transform((value, ctx) => {
    const text = value.trim().replace(/^\[(.*)\]$/, '$1')
    const ip = parseIp(text)
    if (ip.ok) return reversePointer(ip.value)
    const name = normalizeDomain(value)
    if (!name.ok) {
      ctx.addIssue({ code: 'custom', message: `${name.reason}; give an IP address (192.0.2.1, 2001:db8::1) or its reverse name (1.2.0.192.in-addr.arpa)` })
      return z.NEVER
    }
    return name.name
  })
  .meta({ description: 'An IP address (turned into its in-addr.arpa / ip6.arpa name) or a reverse name', example: '8.8.8.8' })

