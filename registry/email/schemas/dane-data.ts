import { z } from 'zod'
import { AnswerStatus } from '../../dns/schemas/dns-data.ts'
import { DaneHostData } from '../../dns/schemas/dane-data.ts'
import { OperatorFindingData } from '../../dns/schemas/operator-findings.ts'

// Shape of /api/email/dane: DANE for SMTP (RFC 7672) on every MX host.

export const EMAIL_DANE_STATUSES = ['valid', 'partial', 'failing', 'not_secure', 'not_used', 'not_applicable', 'indeterminate'] as const

export const EmailDaneData = z.object({
  domain: z.string(),
  status: z.enum(EMAIL_DANE_STATUSES).meta({
    description:
      'valid: every MX host probed has secure TLSA records its certificate matches; partial: not every host is authenticated: the others publish no TLSA or could not be checked (unreachable, indeterminate); failing: a host with secure TLSA fails (mismatch, bogus, no STARTTLS, no usable record) or the MX RRset is bogus, so DANE senders defer mail; not_secure: TLSA published but the MX records, or a host\'s TLSA records, are not DNSSEC-secure; not_used: no MX host publishes TLSA; not_applicable: the domain takes no mail (null MX, or it does not exist); indeterminate: the MX records could not be read (SERVFAIL) and do not fail validation',
  }),
  score: z.number().int().nullable().meta({ description: '0-100 from the findings (critical -50, high -25, medium -10, low -5); null when DANE is not used or does not apply' }),
  mx: z.object({
    status: AnswerStatus,
    implicit: z.boolean().meta({ description: 'No MX records: the domain itself is the mail host (RFC 5321 §5.1)' }),
    null_mx: z.boolean(),
    hosts: z.array(z.object({ host: z.string(), preference: z.number().int() })),
    dnssec: z
      .object({ status: z.enum(['secure', 'insecure', 'bogus', 'indeterminate']), reason: z.string().nullable(), message: z.string() })
      .nullable()
      .meta({ description: 'The service\'s own validation of the MX RRset: DANE applies only to MX hosts learned securely (RFC 7672 §2.2.1)' }),
  }),
  hosts: z.array(DaneHostData.extend({ preference: z.number().int() })).meta({ description: 'Each MX host (up to 5, by preference): _25._tcp TLSA and the STARTTLS certificate' }),
  findings: z.array(OperatorFindingData),
})
