import type { ComplianceFacts, ProfileResult } from './compliance.ts'
import { checkProfile } from './compliance.ts'
import type { ProfileName } from './guidelines.ts'
import type { ProfilesAnswer } from './profile-store.ts'

// The compliance part of an analysis: which guidelines document was used (its
// version, its own href, where it was read from and when), and each profile's
// result; or, when no document is to be had, "unavailable" and why. The rest of
// the analysis never depends on it.

export interface ComplianceAnswer {
  status: 'checked' | 'unavailable'
  reason: string | null
  guidelines: {
    version: string
    href: string | null
    source: string
    source_kind: 'url' | 'file'
    fetched_at: string
    sha256: string
    refresh_error: string | null
  } | null
  compliant_with: ProfileName[]
  profiles: ProfileResult[]
}

export function unavailableCompliance(reason: string): ComplianceAnswer {
  return { status: 'unavailable', reason, guidelines: null, compliant_with: [], profiles: [] }
}

export function complianceAnswer(answer: ProfilesAnswer, facts: ComplianceFacts): ComplianceAnswer {
  if (!answer.ok) return unavailableCompliance(answer.reason)
  const { loaded } = answer
  const profiles = loaded.guidelines.profiles.map((p) => checkProfile(p, facts))
  return {
    status: 'checked',
    reason: null,
    guidelines: {
      version: loaded.guidelines.version,
      href: loaded.guidelines.href,
      source: loaded.source,
      source_kind: loaded.source_kind,
      fetched_at: loaded.fetched_at,
      sha256: loaded.sha256,
      refresh_error: answer.refresh_error,
    },
    compliant_with: profiles.filter((p) => p.compliant).map((p) => p.profile),
    profiles,
  }
}
