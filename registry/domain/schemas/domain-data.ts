import { z } from 'zod'
import { AnswerStatus } from '../../dns/schemas/dns-data.ts'
import {
  EntityData,
  NameserverData,
  RegistrarData,
  RegistrarFollowData,
  SecureDnsData,
  StatusCodeData,
  commonShape,
  sourceShape,
} from './rdap-data.ts'

// Shapes of the /api/domain/* answers.

export const DomainWhoisData = z.object({
  domain: z.string(),
  object_class: z.literal('domain'),
  ldh_name: z.string().nullable(),
  unicode_name: z.string().nullable(),
  ...commonShape,
  registered: z.string().nullable(),
  expires: z.string().nullable(),
  last_changed: z.string().nullable(),
  rdap_updated: z.string().nullable().meta({ description: 'When the registry last refreshed its RDAP database' }),
  registrar: RegistrarData,
  registrant: EntityData.nullable(),
  nameservers: z.array(NameserverData),
  secure_dns: SecureDnsData,
  ...sourceShape,
  registrar_rdap: RegistrarFollowData,
})

export const DomainRegistrarData = z.object({
  domain: z.string(),
  registrar: RegistrarData,
  whois_server: z.string().nullable().meta({ description: "The registry's port 43 WHOIS server" }),
  ...sourceShape,
})

export const DomainAgeData = z.object({
  domain: z.string(),
  created: z.string().nullable().meta({ description: 'The registration event' }),
  expires: z.string().nullable(),
  last_changed: z.string().nullable(),
  age_days: z.number().int().nullable(),
  age_years: z.number().nullable().meta({ description: 'age_days / 365.25, two decimals' }),
  days_to_expiry: z.number().int().nullable().meta({ description: 'Negative once expired' }),
  expired: z.boolean().nullable(),
  ...sourceShape,
})

export const NameserverComparisonData = z.object({
  domain: z.string(),
  registry_nameservers: z.array(z.string()).meta({ description: 'The delegation the registry holds (RDAP)' }),
  dns_nameservers: z.array(z.string()).nullable().meta({ description: 'The NS set DNS answers (the zone\'s own); null when DNS failed' }),
  dns_status: AnswerStatus,
  dns_error: z.string().nullable(),
  in_sync: z.boolean().nullable().meta({ description: 'Both sets are equal; null when DNS gave no answer to compare' }),
  mismatch: z.boolean().meta({ description: 'The sets differ (a lame or stale delegation)' }),
  only_in_registry: z.array(z.string()),
  only_in_dns: z.array(z.string()),
  nameservers: z.array(
    z.object({ name: z.string(), in_registry: z.boolean(), in_dns: z.boolean(), ipv4: z.array(z.string()), ipv6: z.array(z.string()) }),
  ),
  ...sourceShape,
})

export const Severity = z.enum(['critical', 'high', 'medium', 'low', 'info'])

export const FindingData = z.object({ severity: Severity, code: z.string(), message: z.string() })

export const DomainIntelligenceData = z.object({
  domain: z.string(),
  registration: z
    .object({
      registrar: RegistrarData,
      created: z.string().nullable(),
      expires: z.string().nullable(),
      age_days: z.number().int().nullable(),
      days_to_expiry: z.number().int().nullable(),
      status: z.array(StatusCodeData),
      transfer_locked: z.boolean(),
      registry_locked: z.boolean().meta({ description: 'server update, delete and transfer prohibited (registry lock)' }),
      on_hold: z.boolean(),
      rdap_server: z.string(),
    })
    .nullable()
    .meta({ description: 'null when RDAP had no answer (see errors)' }),
  dnssec: z.object({ delegation_signed: z.boolean().nullable(), ds_count: z.number().int() }).nullable(),
  nameservers: z.object({
    registry: z.array(z.string()).nullable(),
    dns: z.array(z.string()).nullable(),
    in_sync: z.boolean().nullable(),
  }),
  mail: z.object({
    mx: z.array(z.object({ preference: z.number().int(), exchange: z.string() })).nullable(),
    null_mx: z.boolean().nullable().meta({ description: 'RFC 7505: the domain declares it accepts no mail' }),
    spf: z.object({ present: z.boolean(), records: z.array(z.string()) }).nullable(),
    dmarc: z.object({ present: z.boolean(), record: z.string().nullable(), policy: z.string().nullable() }).nullable(),
  }),
  caa: z.object({ present: z.boolean(), issuers: z.array(z.string()), records: z.array(z.string()) }).nullable(),
  findings: z.array(FindingData).meta({ description: 'Most severe first' }),
  errors: z.array(z.object({ part: z.string(), message: z.string() })).meta({ description: 'Parts that could not be checked; the answer is partial' }),
})
