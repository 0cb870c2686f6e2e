// The CAA set that governs a name (RFC 8659 §3): the RRset of the closest name at
// or above it that has CAA records, climbing label by label up to the TLD (never
// the root). Its issue / issuewild properties say which CAs may issue, and for
// which kind of name (§4.2, §4.3).

export interface CaaRecord {
  flags: number
  tag: string
  value: string
}

/** The domain and each parent down to the TLD: a.b.example.com, b.example.com, example.com, com. */
export function climb(domain: string): string[] {
  const labels = domain.split('.')
  return labels.map((_, i) => labels.slice(i).join('.')).filter((n) => n !== '')
}

/**
 * The issuer domain of an issue / issuewild value (`letsencrypt.org; accounturi=…`):
 * lower case, before the first ";". An empty one (`;` or "") allows no CA, so it
 * is no domain at all.
 */
export function issuerDomain(value: string): string | null {
  const domain = value.split(';')[0]!.trim().toLowerCase().replace(/\.$/, '')
  return domain === '' ? null : domain
}

export interface CaaSet {
  issue: string[]
  /** null: no issuewild property, so issue governs wildcard names as well. */
  issuewild: string[] | null
  /** Any issue property at all (an RRset of iodef only restricts nothing). */
  hasIssue: boolean
}

export function caaSet(records: readonly CaaRecord[]): CaaSet {
  const of = (tag: string) => records.filter((r) => r.tag.toLowerCase() === tag)
  const domains = (list: readonly CaaRecord[]) => [...new Set(list.map((r) => issuerDomain(r.value)).filter((d): d is string => d !== null))]
  const wild = of('issuewild')
  return { issue: domains(of('issue')), issuewild: wild.length > 0 ? domains(wild) : null, hasIssue: of('issue').length > 0 }
}

export type Authorization = 'allowed' | 'not_allowed' | 'no_caa' | 'unrestricted' | 'unknown_issuer' | 'unknown'

/**
 * May the CA answering to `identifiers` issue for the name under this set?
 * `set` null: the climb found no CAA (any CA may); undefined: the set is not known.
 */
export function authorize(set: CaaSet | null | undefined, identifiers: readonly string[] | null, wildcard: boolean): Authorization {
  if (set === undefined) return 'unknown'
  if (set === null) return 'no_caa'
  // §4.3: issuewild governs wildcard names when present; otherwise issue does.
  const governing = wildcard && set.issuewild !== null ? set.issuewild : set.hasIssue ? set.issue : null
  if (governing === null) return 'unrestricted'
  if (identifiers === null) return 'unknown_issuer'
  return identifiers.some((id) => governing.includes(id)) ? 'allowed' : 'not_allowed'
}
