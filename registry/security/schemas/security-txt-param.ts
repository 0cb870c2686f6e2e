import { z } from 'zod'
import { parseIp } from '../../../runtime/ip/parse.ts'
import { parseWebTarget } from '../../web/schemas/web-target.ts'

// The security.txt endpoint's {domain}: a domain name as everywhere else (a URL's
// scheme and path are dropped), except that a port is kept — a staging site on
// :8443 has a security.txt too. Always https (RFC 9116 §3 forbids plain http).

export interface SecurityTxtHost {
  domain: string
  port: number | null
}

export const SecurityTxtHostParam = z
  .string()
  .transform((value, ctx) => {
    const parsed = parseWebTarget(value)
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.reason })
      return z.NEVER
    }
    const t = parsed.target
    // The target's hostname is an address exactly when it was given as one (it is
    // then in canonical form), so the address parser tells the two apart.
    if (parseIp(t.hostname).ok) {
      ctx.addIssue({ code: 'custom', message: `"${value}" is an IP address, not a domain name` })
      return z.NEVER
    }
    if (t.scheme === 'http') {
      ctx.addIssue({ code: 'custom', message: 'security.txt is only valid over https (RFC 9116 §3); drop http://' })
      return z.NEVER
    }
    return { domain: t.hostname, port: t.port } satisfies SecurityTxtHost
  })
  .meta({ description: 'Domain name, optionally with :port; fetched over https', example: 'example.com' })
