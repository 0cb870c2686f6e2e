import { z } from 'zod'
import { PROFILE_NAMES } from '../../../registry/tls/schemas/compliance-data.ts'

// Mozilla's server-side TLS guidelines as it publishes them in JSON
// (https://ssl-config.mozilla.org/guidelines/<version>.json): a version, the
// document's own address and one configuration per profile. Read leniently,
// field by field: the schema changes between versions (6.0 dropped the "old"
// profile), so a field this code does not know is ignored, a field a version
// lacks is "not in this version" and a field in a form this code does not
// expect is "unreadable": both are listed as not checked, never guessed and
// never a deviation, and the other fields are still judged. Only a document
// without a version or any of the profiles is refused. The document comes from
// a configured URL or file, not from a client, but it is still read as data:
// only the three profile names are looked up, with bounded lists.

export type ProfileName = (typeof PROFILE_NAMES)[number]

const names = z.array(z.string().max(200)).max(500)
const size = z.number().int().min(0).max(1_000_000_000).nullable()
const flag = z.boolean().nullable()

const FIELD_SCHEMAS = {
  tls_versions: names,
  ciphersuites: names,
  ciphers: z.object({ iana: names.optional(), openssl: names.optional() }),
  tls_curves: names,
  certificate_types: names,
  certificate_curves: names,
  certificate_signatures: names,
  rsa_key_size: size,
  dh_param_size: size,
  ecdh_param_size: size,
  hsts_min_age: size,
  maximum_certificate_lifespan: size,
  ocsp_staple: flag,
  server_preferred_order: flag,
  oldest_clients: names,
} as const

type FieldName = keyof typeof FIELD_SCHEMAS
type Fields = { [K in FieldName]: z.output<(typeof FIELD_SCHEMAS)[K]> | null }

/** The fields that are judged (oldest_clients is shown, never judged). */
const JUDGED: readonly FieldName[] = ['tls_versions', 'ciphersuites', 'ciphers', 'tls_curves', 'certificate_types', 'certificate_curves', 'certificate_signatures', 'rsa_key_size', 'dh_param_size', 'ecdh_param_size', 'hsts_min_age', 'maximum_certificate_lifespan', 'ocsp_staple', 'server_preferred_order']

const GuidelinesJson = z.object({
  version: z.union([z.number(), z.string().min(1).max(40)]),
  href: z.string().max(2000).optional().catch(undefined),
  // The object as JSON.parse made it (an own "__proto__" key stays a plain key): only the profile names are read.
  configurations: z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'expected an object'),
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
  /** Judged fields this profile cannot be judged on, and why (not in this version, or not in a form this code reads). */
  unjudged: Array<{ field: string; reason: string }>
}

export interface Guidelines {
  version: string
  href: string | null
  profiles: Profile[]
}

function readProfile(name: ProfileName, raw: unknown): Profile | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return `configurations.${name} is not an object`
  const record = raw as Record<string, unknown>
  const fields = {} as Record<FieldName, unknown>
  const unjudged: Array<{ field: string; reason: string }> = []
  for (const field of Object.keys(FIELD_SCHEMAS) as FieldName[]) {
    if (!Object.hasOwn(record, field) || record[field] === undefined) {
      fields[field] = null
      if (JUDGED.includes(field)) unjudged.push({ field, reason: 'not in this version of the guidelines' })
      continue
    }
    const parsed = FIELD_SCHEMAS[field].safeParse(record[field])
    fields[field] = parsed.success ? parsed.data : null
    if (!parsed.success && JUDGED.includes(field)) {
      const issue = parsed.error.issues[0]!
      unjudged.push({ field, reason: `unreadable in this document: ${[field, ...issue.path].join('.')}: ${issue.message}` })
    }
  }
  const f = fields as Fields
  const ciphers = f.ciphers
  if (ciphers && !ciphers.iana && !ciphers.openssl) unjudged.push({ field: 'ciphers', reason: 'the document lists neither ciphers.iana nor ciphers.openssl' })
  return {
    name,
    tls_versions: f.tls_versions,
    ciphersuites: f.ciphersuites,
    ciphers_iana: ciphers?.iana ?? null,
    ciphers_openssl: ciphers?.openssl ?? null,
    tls_curves: f.tls_curves,
    certificate_types: f.certificate_types,
    certificate_curves: f.certificate_curves,
    certificate_signatures: f.certificate_signatures,
    rsa_key_size: f.rsa_key_size,
    dh_param_size: f.dh_param_size,
    ecdh_param_size: f.ecdh_param_size,
    hsts_min_age: f.hsts_min_age,
    maximum_certificate_lifespan: f.maximum_certificate_lifespan,
    ocsp_staple: f.ocsp_staple,
    server_preferred_order: f.server_preferred_order,
    oldest_clients: f.oldest_clients,
    unjudged,
  }
}

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
    if (!Object.hasOwn(doc.configurations, name)) continue
    const profile = readProfile(name, doc.configurations[name])
    if (typeof profile === 'string') throw new Error(`the document is not in the guidelines schema: ${profile}`)
    profiles.push(profile)
  }
  if (profiles.length === 0) throw new Error(`the document has none of the profiles ${PROFILE_NAMES.join(', ')} under "configurations"`)
  return { version: String(doc.version), href: doc.href ?? null, profiles }
}
