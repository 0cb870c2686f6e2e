import { z } from 'zod'
import { FindingList } from './findings.ts'

export const CertificateSchema = z.object({
  subject: z.string().nullable(),
  issuer: z.string().nullable(),
  names: z.array(z.string()),
  valid_from: z.string(),
  valid_to: z.string(),
  days_remaining: z.number().int(),
  expired: z.boolean(),
  self_signed: z.boolean(),
  key_type: z.string().nullable(),
  key_bits: z.number().int().nullable(),
  fingerprint_sha256: z.string(),
  serial_number: z.string(),
  chain: z.array(z.object({ subject: z.string().nullable(), issuer: z.string().nullable() })),
})

export const StarttlsSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  address: z.string().nullable(),
  status: z.enum(['ok', 'no_starttls', 'tls_failed', 'unreachable', 'blocked', 'smtp_error']),
  banner: z.string().nullable(),
  extensions: z.array(z.string()).meta({ description: 'EHLO keywords before STARTTLS' }),
  starttls: z.boolean(),
  tls: z
    .object({
      protocol: z.string().nullable(),
      cipher: z.string().nullable(),
      trusted: z.boolean(),
      trust_error: z.string().nullable(),
      name_matches: z.boolean(),
      certificate: CertificateSchema.nullable(),
    })
    .nullable(),
  error: z.string().nullable(),
  time_ms: z.number().int(),
})

export const TlsPartSchema = z.object({
  port: z.number().int(),
  hosts: z.array(StarttlsSchema),
  findings: FindingList,
})

export type TlsPartShape = z.infer<typeof TlsPartSchema>
