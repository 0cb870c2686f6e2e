// Age and time to expiry from the registration and expiration events. Whole days,
// rounded down: a domain registered 23 hours ago is 0 days old.

const DAY_MS = 24 * 60 * 60 * 1000

export interface DomainAge {
  age_days: number | null
  age_years: number | null
  days_to_expiry: number | null
  expired: boolean | null
}

const ms = (iso: string | null): number | null => {
  if (iso === null) return null
  const t = Date.parse(iso)
  return Number.isNaN(t) ? null : t
}

export function ageOf(created: string | null, expires: string | null, nowMs: number): DomainAge {
  const c = ms(created)
  const e = ms(expires)
  const age_days = c === null ? null : Math.floor((nowMs - c) / DAY_MS)
  return {
    age_days,
    age_years: age_days === null ? null : Math.round((age_days / 365.25) * 100) / 100,
    days_to_expiry: e === null ? null : Math.floor((e - nowMs) / DAY_MS),
    expired: e === null ? null : e <= nowMs,
  }
}
