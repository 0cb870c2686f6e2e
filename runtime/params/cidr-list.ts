import { z } from 'zod'

// The body of a CIDR list endpoint (cidr/summarize): {"cidrs": [...]}, a bare JSON
// array, or plain text one entry per line (which the runtime hands over as an
// array of lines). Entries stay unknown here: judging each one, and listing the
// bad ones with reasons, is the endpoint's answer, not a 400 for the whole list.

const SHAPE_MESSAGE = 'expected {"cidrs": ["192.0.2.0/24", ...]}, a JSON array of CIDR strings, or plain text with one CIDR per line'

const Entries = z.array(z.unknown(), { error: () => SHAPE_MESSAGE })

export const CidrListBody = z
  .union([Entries, z.object({ cidrs: Entries }, { error: () => SHAPE_MESSAGE })], { error: () => SHAPE_MESSAGE })
  .transform((body, ctx) => {
    const list = Array.isArray(body) ? body : body.cidrs
    if (list.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'the list is empty; send at least one CIDR block or address' })
      return z.NEVER
    }
    return list
  })
  .meta({
    description: 'CIDR blocks or addresses, IPv4 and IPv6 mixed: {"cidrs": [...]}, a JSON array, or text one per line',
    example: { cidrs: ['192.0.2.0/25', '192.0.2.128/25', '2001:db8::/33', '2001:db8:8000::/33'] },
  })
