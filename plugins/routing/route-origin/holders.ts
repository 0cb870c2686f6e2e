// Whether two registrations name one organization. The registries give each
// organization a handle (ARIN "GOGL", RIPE "ORG-…-RIPE") that its AS numbers and
// its address blocks share, so equal handles settle it; otherwise the names are
// compared with case, punctuation and legal-form words (Inc, LLC, GmbH, …) set
// aside. Different names are not proof of different holders (a parent and its
// subsidiary), which is why the finding that uses this is worded as a signal.

export interface HolderRef {
  handle: string | null
  name: string | null
}

const LEGAL_FORMS = new Set(['inc', 'incorporated', 'llc', 'ltd', 'limited', 'corp', 'corporation', 'co', 'company', 'gmbh', 'ag', 'bv', 'nv', 'sa', 'sas', 'srl', 'spa', 'plc', 'pty', 'oy', 'ab', 'as', 'kk', 'the'])

/** A holder name reduced to the words that tell organizations apart. */
export function holderKey(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((w) => w !== '' && !LEGAL_FORMS.has(w))
    .join(' ')
}

/** true: one organization; false: two; null: a side is unknown. */
export function sameHolder(a: HolderRef | null, b: HolderRef | null): boolean | null {
  if (a === null || b === null) return null
  if (a.handle !== null && b.handle !== null && a.handle.toUpperCase() === b.handle.toUpperCase()) return true
  if (a.name === null || b.name === null) return a.handle !== null && b.handle !== null ? false : null
  const ka = holderKey(a.name)
  const kb = holderKey(b.name)
  if (ka === '' || kb === '') return null
  return ka === kb
}
