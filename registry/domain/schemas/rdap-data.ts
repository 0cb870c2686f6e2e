import { z } from 'zod'

// Shapes of normalized RDAP data (documentation, OpenAPI and tests). They mirror
// the normalizers' types field for field.

export const StatusCodeData = z.object({
  code: z.string().meta({ description: 'RDAP status value (RFC 8056 spelling), e.g. "client transfer prohibited"' }),
  epp: z.string().nullable().meta({ description: 'The EPP status code, e.g. clientTransferProhibited' }),
  meaning: z.string().nullable(),
})

export const EventData = z.object({
  action: z.string().meta({ description: 'registration, expiration, last changed, last update of rdap database, transfer, ...' }),
  date: z.string().meta({ description: 'UTC ISO 8601' }),
  actor: z.string().nullable(),
})

export const EntityData = z.object({
  handle: z.string().nullable(),
  roles: z.array(z.string()),
  parent_handle: z.string().nullable().meta({ description: 'The entity this one is nested in (e.g. the registrar of an abuse contact)' }),
  name: z.string().nullable(),
  organization: z.string().nullable(),
  kind: z.string().nullable(),
  emails: z.array(z.string()),
  phones: z.array(z.object({ number: z.string(), types: z.array(z.string()) })),
  address: z.array(z.string()),
  url: z.string().nullable(),
  public_ids: z.array(z.object({ type: z.string(), identifier: z.string() })),
  iana_id: z.string().nullable().meta({ description: 'IANA Registrar ID (publicIds)' }),
  status: z.array(StatusCodeData),
  events: z.array(EventData),
})

export const AbuseContactData = z
  .object({
    handle: z.string().nullable(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    inferred: z.boolean().meta({ description: 'true: no entity has the abuse role; this is an abuse@ mailbox of another contact' }),
  })
  .nullable()

export const TextBlockData = z.object({ title: z.string().nullable(), description: z.string(), links: z.array(z.string()) })

export const LinkData = z.object({ rel: z.string().nullable(), href: z.string(), type: z.string().nullable() })

export const BootstrapInfoData = z.object({
  entry: z.string().meta({ description: 'The IANA bootstrap entry that matched (TLD, prefix or ASN range)' }),
  publication: z.string().nullable(),
  origin: z.enum(['live', 'snapshot']).meta({ description: 'live: fetched bootstrap file; snapshot: the bundled copy (fetch failed)' }),
})

/** Members every RDAP object class shares. */
export const commonShape = {
  handle: z.string().nullable(),
  status: z.array(StatusCodeData),
  events: z.array(EventData),
  entities: z.array(EntityData).meta({ description: 'Every entity, nested ones flattened after their parent' }),
  abuse_contact: AbuseContactData,
  port43: z.string().nullable().meta({ description: 'The registry\'s WHOIS server' }),
  notices: z.array(TextBlockData),
  remarks: z.array(TextBlockData),
  links: z.array(LinkData),
  rdap_conformance: z.array(z.string()),
}

/** Where the answer came from. */
export const sourceShape = {
  rdap_server: z.string().meta({ description: 'Base URL of the RDAP service the IANA bootstrap names' }),
  rdap_url: z.string().meta({ description: 'The URL that answered (after redirects)' }),
  bootstrap: BootstrapInfoData,
}

export const OrgRefData = z.object({ handle: z.string().nullable(), name: z.string().nullable() }).nullable()

export const RegistrarData = z
  .object({
    handle: z.string().nullable(),
    name: z.string().nullable(),
    iana_id: z.string().nullable(),
    url: z.string().nullable(),
    abuse_email: z.string().nullable(),
    abuse_phone: z.string().nullable(),
  })
  .nullable()

export const NameserverData = z.object({
  name: z.string(),
  unicode_name: z.string().nullable(),
  handle: z.string().nullable(),
  ipv4: z.array(z.string()).meta({ description: 'Glue addresses the registry holds' }),
  ipv6: z.array(z.string()),
})

export const SecureDnsData = z.object({
  delegation_signed: z.boolean().nullable().meta({ description: 'DS records are published in the parent zone' }),
  zone_signed: z.boolean().nullable(),
  max_sig_life: z.number().int().nullable(),
  ds: z.array(z.object({ key_tag: z.number().int().nullable(), algorithm: z.number().int().nullable(), digest_type: z.number().int().nullable(), digest: z.string().nullable() })),
  keys: z.array(z.object({ flags: z.number().int().nullable(), protocol: z.number().int().nullable(), algorithm: z.number().int().nullable(), public_key: z.string().nullable() })),
})

export const RegistrarFollowData = z
  .object({
    url: z.string(),
    status: z.enum(['ok', 'not_found', 'failed', 'blocked']),
    error: z.string().nullable(),
  })
  .nullable()
  .meta({ description: "The registrar's RDAP record, followed when the registry answer was thin (only the registrar named); null when not followed" })

export const IpWhoisData = z.object({
  ip: z.string(),
  registry: z.string().nullable().meta({ description: 'The regional registry that answered (ARIN, RIPE NCC, APNIC, LACNIC, AFRINIC)' }),
  object_class: z.literal('ip network'),
  name: z.string().nullable(),
  type: z.string().nullable(),
  ip_version: z.union([z.literal(4), z.literal(6)]).nullable(),
  start_address: z.string().nullable(),
  end_address: z.string().nullable(),
  cidrs: z.array(z.string()),
  cidr_source: z.enum(['cidr0', 'computed']).nullable().meta({ description: 'cidr0: sent by the registry (cidr0 extension); computed: from the start/end range' }),
  parent_handle: z.string().nullable(),
  country: z.string().nullable(),
  registered: z.string().nullable(),
  last_changed: z.string().nullable(),
  origin_asns: z.array(z.number().int()),
  organization: OrgRefData,
  ...commonShape,
  ...sourceShape,
})

export const AsnRegistrationData = z.object({
  asn: z.number().int(),
  registry: z.string().nullable(),
  object_class: z.literal('autnum'),
  name: z.string().nullable(),
  type: z.string().nullable(),
  start_autnum: z.number().int().nullable(),
  end_autnum: z.number().int().nullable(),
  country: z.string().nullable(),
  registered: z.string().nullable(),
  last_changed: z.string().nullable(),
  organization: OrgRefData,
  ...commonShape,
  ...sourceShape,
})
