import { z } from 'zod'

// Shape of the certificate-transparency endpoint's data.

const Issuer = z.object({
  name: z.string().meta({ description: 'Issuer DN as crt.sh gives it' }),
  organization: z.string().nullable(),
  common_name: z.string().nullable(),
  ca_id: z.number().int().nullable().meta({ description: 'crt.sh CA id' }),
})

export const CertificateTransparencyData = z.object({
  domain: z.string(),
  include_subdomains: z.boolean(),
  expired_included: z.boolean(),
  schema: z.enum(['current', 'legacy']).meta({ description: 'Which crt.sh JSON shape answered (legacy: without common_name and serial_number)' }),
  log_entries: z.number().int().meta({ description: 'Entries crt.sh returned (precertificates and certificates, per log)' }),
  skipped_entries: z.number().int(),
  certificate_count: z.number().int(),
  names: z.array(z.string()).meta({ description: 'Every DNS name the shown certificates cover, deduplicated' }),
  issuers: z.array(Issuer.extend({ certificate_count: z.number().int() })),
  certificates: z.array(
    z.object({
      crtsh_ids: z.array(z.number().int()),
      serial_number: z.string().nullable(),
      common_name: z.string().nullable(),
      names: z.array(z.string()),
      other_identities: z.array(z.string()).meta({ description: 'Identities that are not DNS names (e-mail addresses, free text)' }),
      issuer: Issuer,
      not_before: z.string(),
      not_after: z.string(),
      validity_days: z.number().int(),
      days_left: z.number().int(),
      expired: z.boolean(),
      first_logged: z.string().nullable(),
      log_entries: z.number().int(),
    }),
  ),
})
