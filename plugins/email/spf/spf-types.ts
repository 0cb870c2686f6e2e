// The parsed form of an SPF record (RFC 7208 §4.6, §5, §6) and the results of check_host().

export type SpfQualifier = '+' | '-' | '~' | '?'

export type SpfResult = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'permerror' | 'temperror'

export const MECHANISMS = ['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists'] as const
export type MechanismName = (typeof MECHANISMS)[number]

/** Terms that cost a DNS query and count against the limit of 10 (RFC 7208 §4.6.4). */
export const LOOKUP_MECHANISMS: ReadonlySet<string> = new Set(['include', 'a', 'mx', 'ptr', 'exists'])

export interface SpfMechanism {
  kind: 'mechanism'
  raw: string
  qualifier: SpfQualifier
  /** The qualifier was written out (a bare "all" is "+all"). */
  explicitQualifier: boolean
  name: MechanismName
  /** include, a, mx, ptr, exists: the domain-spec as written; null when omitted (a, mx, ptr). */
  domainSpec: string | null
  /** ip4, ip6: the network address as written. */
  network: string | null
  cidr4: number | null
  cidr6: number | null
}

export interface SpfModifier {
  kind: 'modifier'
  raw: string
  /** Lowercased. */
  name: string
  value: string
}

export type SpfTerm = SpfMechanism | SpfModifier

export interface SpfSyntaxError {
  /** The offending term ('' for record-level problems). */
  term: string
  message: string
}

export interface ParsedSpf {
  terms: SpfTerm[]
  mechanisms: SpfMechanism[]
  redirect: SpfModifier | null
  exp: SpfModifier | null
  /** Any entry makes the record a permerror (RFC 7208 §4.6: errors anywhere in the record). */
  errors: SpfSyntaxError[]
}

export const QUALIFIER_RESULT: Record<SpfQualifier, 'pass' | 'fail' | 'softfail' | 'neutral'> = {
  '+': 'pass',
  '-': 'fail',
  '~': 'softfail',
  '?': 'neutral',
}
