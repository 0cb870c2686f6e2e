import { z } from 'zod'
import { FindingList } from './findings.ts'

export const MxHostSchema = z.object({
  preference: z.number().int(),
  exchange: z.string(),
  status: z.enum(['ok', 'no_address', 'nxdomain', 'ip_literal', 'null', 'dns_error']),
  addresses: z.array(z.string()),
  cname_chain: z.array(z.string()).meta({ description: 'Non-empty when the exchange is an alias (forbidden by RFC 2181 §10.3 / RFC 5321 §5.1)' }),
  reverse_dns: z.array(
    z.object({
      address: z.string(),
      ptr: z.array(z.string()),
      fcrdns: z.boolean().meta({ description: 'Some PTR name resolves back to the address' }),
      error: z.string().nullable(),
    }),
  ),
  refused_addresses: z.array(z.string()).meta({ description: 'Private, loopback or reserved addresses no one on the internet can deliver to' }),
  error: z.string().nullable(),
})

export const MxData = z.object({
  domain: z.string(),
  status: z.enum(['answer', 'nodata', 'nxdomain', 'error']),
  null_mx: z.boolean().meta({ description: 'A null MX ("MX 0 .", RFC 7505) is published; alone it means the domain accepts no mail, beside other MX records it is an error (mx.null_mixed)' }),
  implicit_mx: z.boolean().meta({ description: 'No MX records, but an address: senders deliver to the domain itself (RFC 5321 §5.1)' }),
  accepts_mail: z.boolean().meta({ description: 'Some MX host (or, without MX, the domain itself) has an address to deliver to' }),
  records: z.array(MxHostSchema).meta({ description: 'By preference, lowest (most preferred) first' }),
  findings: FindingList,
})

export type MxDataShape = z.infer<typeof MxData>
export type MxHostShape = z.infer<typeof MxHostSchema>
