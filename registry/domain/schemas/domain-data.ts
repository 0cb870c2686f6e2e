import { z } from 'zod'
import { AnswerStatus } from '../../dns/schemas/dns-data.ts'
import {
  BootstrapInfoData,
  EntityData,
  NameserverData,
  RegistrarData,
  RegistrarFollowData,
  SecureDnsData,
  StatusCodeData,
  commonShape,
} from './rdap-data.ts'

// Shapes of the /api/domain/* answers. The registration comes from RDAP where the
// IANA bootstrap names a service for the TLD, else from port-43 WHOIS (`source`).

export const RegistrationSource = z.enum(['rdap', 'whois']).meta({
  description: 'rdap: the registry\'s RDAP service (IANA bootstrap); whois: its port-43 WHOIS server (the TLD has no RDAP service), parsed from text',
})

/** What was asked over WHOIS (source "whois"); null for RDAP answers. */
export const WhoisSourceData = z
  .object({
    iana_server: z.string().meta({ description: 'IANA\'s WHOIS server that named the registry\'s (INFRALENS_WHOIS_IANA)' }),
    iana_cached: z.boolean().meta({ description: 'IANA\'s referral came from the cache (kept a day)' }),
    server: z.string().meta({ description: "The registry's WHOIS server, host:port" }),
    query: z.string().meta({ description: 'What was sent to it' }),
    registrar_server: z.string().nullable().meta({ description: "The registrar's WHOIS server the registry named (one hop, port 43); null when not followed" }),
    registrar_status: z.enum(['ok', 'not_found', 'failed', 'blocked']).nullable(),
    registrar_error: z.string().nullable(),
  })
  .nullable()

/** The same, with the answers' raw text (/api/domain/whois). */
export const WhoisSourceWithTextData = z
  .object({
    ...WhoisSourceData.unwrap().shape,
    raw: z.string().meta({ description: "The registry's answer as received (control characters replaced)" }),
    registrar_raw: z.string().nullable().meta({ description: "The registrar's answer, when its server was asked" }),
  })
  .nullable()

export const DomainBootstrapData = BootstrapInfoData.extend({
  entry: z.string().nullable().meta({ description: 'The IANA bootstrap entry that matched; null when none did (source "whois")' }),
})

/** Where a domain answer came from: RDAP (server, URL, bootstrap entry) or WHOIS. */
export const domainSourceShape = {
  source: RegistrationSource,
  rdap_server: z.string().nullable().meta({ description: 'Base URL of the RDAP service the IANA bootstrap names; null for source "whois"' }),
  rdap_url: z.string().nullable().meta({ description: 'The URL that answered (after redirects); null for source "whois"' }),
  bootstrap: DomainBootstrapData,
  whois: WhoisSourceData,
}

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
  ...domainSourceShape,
  whois: WhoisSourceWithTextData,
  registrar_rdap: RegistrarFollowData,
})

export const DomainRegistrarData = z.object({
  domain: z.string(),
  registrar: RegistrarData,
  whois_server: z.string().nullable().meta({ description: "The registry's port 43 WHOIS server" }),
  ...domainSourceShape,
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
  ...domainSourceShape,
})

export const NameserverComparisonData = z.object({
  domain: z.string(),
  registry_nameservers: z.array(z.string()).meta({ description: 'The delegation the registry holds (RDAP or WHOIS)' }),
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
  ...domainSourceShape,
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
      source: RegistrationSource,
      rdap_server: z.string().nullable(),
      whois_server: z.string().nullable().meta({ description: 'The WHOIS server that answered (source "whois")' }),
    })
    .nullable()
    .meta({ description: 'null when neither RDAP nor WHOIS had an answer (see errors)' }),
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
