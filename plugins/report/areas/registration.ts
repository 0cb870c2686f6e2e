import type { z } from 'zod'
import type { DomainAgeData, DomainRegistrarData } from '../../../registry/domain/schemas/domain-data.ts'
import type { ReportFinding } from '../../../registry/flagship/schemas/report-findings.ts'
import { scoreFromFindings } from '../scoring.ts'
import type { AreaAnswer } from './answer.ts'

// The registration area reads /api/domain/age and /api/domain/registrar (RDAP):
// an expired or soon-expiring registration is the most common way a working
// domain stops working; a days-old domain is the classic phishing signal.

type Age = z.input<typeof DomainAgeData>
type Registrar = z.input<typeof DomainRegistrarData>

export const EXPIRY_WARNING_DAYS = 30
export const NEW_DOMAIN_DAYS = 30

export interface RegistrationFacts {
  registrar: string | null
  created: string | null
  expires: string | null
  age_days: number | null
  days_to_expiry: number | null
}

export function registrationFacts(age: Age | null, registrar: Registrar | null): RegistrationFacts {
  return {
    registrar: registrar?.registrar?.name ?? null,
    created: age?.created ?? null,
    expires: age?.expires ?? null,
    age_days: age?.age_days ?? null,
    days_to_expiry: age?.days_to_expiry ?? null,
  }
}

export function registrationAnswer(facts: RegistrationFacts): AreaAnswer {
  const findings: ReportFinding[] = []
  const add = (id: string, severity: ReportFinding['severity'], message: string, fix: string | null) => findings.push({ area: 'registration', id, severity, message, fix })
  const left = facts.days_to_expiry
  if (left !== null && left < 0) add('registration.expired', 'critical', `The registration expired ${-left} days ago (${facts.expires}).`, 'Renew the domain at the registrar now, before it is released.')
  else if (left !== null && left <= EXPIRY_WARNING_DAYS) add('registration.expiring_soon', 'high', `The registration expires in ${left} days (${facts.expires}).`, 'Renew the domain, and turn on auto-renewal at the registrar.')
  if (facts.age_days !== null && facts.age_days < NEW_DOMAIN_DAYS) {
    add('registration.newly_registered', 'medium', `The domain was registered ${facts.age_days} days ago; new domains are often used for phishing and spam.`, null)
  }
  const parts = [
    facts.registrar ? `registrar ${facts.registrar}` : 'registrar unknown',
    facts.age_days !== null ? `registered ${facts.age_days} days ago` : 'registration date unknown',
    left !== null ? `expires in ${left} days` : 'expiry unknown',
  ]
  // Without a single date there is nothing to judge: reported, not scored.
  const known = facts.age_days !== null || left !== null
  return { score: known ? scoreFromFindings(findings) : null, grade: null, summary: parts.join(', '), findings }
}

/** The registry answered 404: nobody holds the name. */
export function unregisteredAnswer(domain: string): AreaAnswer {
  return {
    score: 0,
    grade: null,
    summary: `${domain} is not registered`,
    findings: [
      { area: 'registration', id: 'registration.not_registered', severity: 'high', message: `The registry has no record of ${domain} (RDAP 404): it is not registered, or was deleted.`, fix: 'Register the domain (or renew it in its redemption period) before someone else does.' },
    ],
  }
}
