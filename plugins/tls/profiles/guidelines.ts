import { z } from 'zod'
import { PROFILE_NAMES } from '../../../registry/tls/schemas/compliance-data.ts'

// Mozilla's server-side TLS guidelines as it publishes them in JSON
// (https://ssl-config.mozilla.org/guidelines/<version>.json): a version, the
// document's own address and one configuration per profile. Read leniently: the
// schema has grown fields over the versions, so a field this code does not know
// is ignored and a field a version lacks is null ("not in this document", never
// a deviation). The document comes from a configured URL or file, not from a
// client, but it is still read as data: only the three profile names are looked
// up, with bounded lists.

export type ProfileName = (typeof PROFILE_NAMES)[number]

const names = z.array(z.string().max(200)).max(500)
const size = z.number().int().min(0).max(1_000_000_000).nullable()

const ConfigurationJson = z.object({
  tls_versions: names.optional(),
  ciphersuites: names.optional(),
  ciphers: z.object({ iana: names.optional(), openssl: names.optional() }).optional(),
  tls_curves: names.optional(),
  certificate_types: names.optional(),
  certificate_curves: names.optional(),
  certificate_signatures: names.optional(),
  rsa_key_size: size.optional(),
  dh_param_size: size.optional(),
  ecdh_param_size: size.optional(),
  hsts_min_age: size.optional(),
  maximum_certificate_lifespan: size.optional(),
  recommended_certificate_lifespan: size.optional(),
  ocsp_staple: z.boolean().nullable().optional(),
  server_preferred_order: z.boolean().nullable().optional(),
  oldest_clients: names.optional(),
})

const GuidelinesJson = z.object({
  version: z.union([z.number(), z.string().max(40)]),
  href: z.string().max(2000).optional(),
  configurations: z.object({ modern: ConfigurationJson.optional(), intermediate: ConfigurationJson.optional(), old: ConfigurationJson.optional() }),
})

/** One profile: every field the compliance check reads, null when the document does not have it. */
export interface Profile {
  name: ProfileName
  tls_versions: string[] | null
  ciphersuites: string[] | null
  /** TLS <= 1.2 suites by IANA name (ciphers.iana), or null with only OpenSSL names. */
  ciphers_iana: string[] | null
  ciphers_openssl: string[] | null
  tls_curves: string[] | null
  certificate_types: string[] | null
  certificate_curves: string[] | null
  certificate_signatures: string[] | null
  rsa_key_size: number | null
  dh_param_size: number | null
  ecdh_param_size: number | null
  hsts_min_age: number | null
  maximum_certificate_lifespan: number | null
  ocsp_staple: boolean | null
  server_preferred_order: boolean | null
  oldest_clients: string[] | null
  /** Fields the document leaves out altogether (a null it states is a value: "none"). */
  absent: string[]
}

export interface Guidelines {
  version: string
  href: string | null
  profiles: Profile[]
}

const FIELDS = ['tls_versions', 'ciphersuites', 'ciphers', 'tls_curves', 'certificate_types', 'certificate_curves', 'certificate_signatures', 'rsa_key_size', 'dh_param_size', 'ecdh_param_size', 'hsts_min_age', 'maximum_certificate_lifespan', 'ocsp_staple', 'server_preferred_order'] as const

/** Reads a guidelines document; throws an Error saying what is wrong with it. */
export function parseGuidelines(text: string): Guidelines {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`the document is not JSON (${(error as Error).message})`)
  }
  const parsed = GuidelinesJson.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new Error(`the document is not in the guidelines schema: ${issue.path.join('.') || '(top level)'}: ${issue.message}`)
  }
  const doc = parsed.data
  const profiles: Profile[] = []
  for (const name of PROFILE_NAMES) {
    const c = doc.configurations[name]
    if (!c) continue
    profiles.push({
      name,
      tls_versions: c.tls_versions ?? null,
      ciphersuites: c.ciphersuites ?? null,
      ciphers_iana: c.ciphers?.iana ?? null,
      ciphers_openssl: c.ciphers?.openssl ?? null,
      tls_curves: c.tls_curves ?? null,
      certificate_types: c.certificate_types ?? null,
      certificate_curves: c.certificate_curves ?? null,
      certificate_signatures: c.certificate_signatures ?? null,
      rsa_key_size: c.rsa_key_size ?? null,
      dh_param_size: c.dh_param_size ?? null,
      ecdh_param_size: c.ecdh_param_size ?? null,
      hsts_min_age: c.hsts_min_age ?? null,
      maximum_certificate_lifespan: c.maximum_certificate_lifespan ?? null,
      ocsp_staple: c.ocsp_staple ?? null,
      server_preferred_order: c.server_preferred_order ?? null,
      oldest_clients: c.oldest_clients ?? null,
      absent: FIELDS.filter((field) => (field === 'ciphers' ? !c.ciphers?.iana && !c.ciphers?.openssl : c[field] === undefined)),
    })
  }
  if (profiles.length === 0) throw new Error(`the document has none of the profiles ${PROFILE_NAMES.join(', ')} under "configurations"`)
  return { version: String(doc.version), href: doc.href ?? null, profiles }
}
