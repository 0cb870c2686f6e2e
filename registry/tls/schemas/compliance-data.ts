import { z } from 'zod'

// The compliance part of /api/tls/analyze and /api/tls/compliance: a server
// against the profiles of Mozilla's server-side TLS guidelines.

export const PROFILE_NAMES = ['modern', 'intermediate', 'old'] as const
export const ProfileName = z.enum(PROFILE_NAMES)

const Value = z
  .union([z.array(z.string()), z.string(), z.number(), z.boolean(), z.null()])
  .meta({ description: 'A value as the guidelines write it: a list of names, a number of bits, days or seconds, a boolean, or null (none)' })

export const DeviationData = z.object({
  profile: ProfileName,
  field: z.string().meta({ description: 'The guidelines field: tls_versions, ciphersuites, ciphers, tls_curves, certificate_types, certificate_curves, certificate_signatures, rsa_key_size, dh_param_size, ecdh_param_size, hsts_min_age, maximum_certificate_lifespan, ocsp_staple, server_preferred_order' }),
  expected: Value.meta({ description: 'What the profile says' }),
  seen: Value.meta({ description: 'What the server does: for lists, the offending entries (for tls_versions every version offered)' }),
  message: z.string(),
})

export const ProfileResultData = z.object({
  profile: ProfileName,
  compliant: z.boolean().meta({ description: 'No deviation in any field that could be checked' }),
  deviations: z.array(DeviationData),
  not_checked: z.array(z.object({ field: z.string(), reason: z.string() })).meta({ description: 'Fields not judged: absent from this version of the guidelines, or not observable (HSTS over STARTTLS or with certificate errors, ...)' }),
  oldest_clients: z.array(z.string()).nullable().meta({ description: 'The oldest clients the profile serves, as the guidelines list them' }),
})

export const GuidelinesData = z
  .object({
    version: z.string().meta({ description: 'The guidelines version the document states (5.7, ...)' }),
    href: z.string().nullable().meta({ description: 'The address the document gives for itself' }),
    source: z.string().meta({ description: 'Where this service read it: INFRALENS_TLS_PROFILES_URL, or the file INFRALENS_TLS_PROFILES_FILE names' }),
    source_kind: z.enum(['url', 'file']),
    fetched_at: z.string().meta({ description: 'When it was read (kept a day, then read again)' }),
    sha256: z.string().meta({ description: 'SHA-256 of the document as read' }),
    refresh_error: z.string().nullable().meta({ description: 'The last attempt to read it again failed (the document in hand is still used)' }),
  })
  .meta({ description: 'The guidelines document the profiles come from' })

export const ComplianceData = z
  .object({
    status: z.enum(['checked', 'unavailable']).meta({ description: 'unavailable: no guidelines document could be had; the rest of the analysis is unaffected' }),
    reason: z.string().nullable().meta({ description: 'Why compliance is unavailable' }),
    guidelines: GuidelinesData.nullable(),
    compliant_with: z.array(ProfileName).meta({ description: 'The profiles with no deviation' }),
    profiles: z.array(ProfileResultData),
  })
  .meta({ description: "Compliance with Mozilla's server-side TLS profiles (modern, intermediate, old), each deviation listed; not part of the grade" })

export const ProfileParam = z
  .preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(PROFILE_NAMES, { error: () => `must be one of ${PROFILE_NAMES.join(', ')}` }))
  .optional()
  .meta({ description: 'Check against this profile only (modern, intermediate, old); all three when left out', example: 'intermediate' })
