import { distance } from 'fastest-levenshtein'

// Environment variables named INFRALENS_* are the service's settings. One the
// config schema does not know is a typo, never something to ignore: with
// INFRALENS_DNS_RESOLVER (for INFRALENS_DNS_RESOLVERS) the service would start
// quietly on the public resolvers it was meant to stop using.

export const SETTING_PREFIX = 'INFRALENS_'

/**
 * What to tell the operator about each INFRALENS_* name in `names` that is not
 * in `known`, one message each, in name order: the closest real settings by edit
 * distance (every one tied at the closest), or the whole list when none is close.
 */
export function unknownSettings(names: Iterable<string>, known: readonly string[]): string[] {
  const real = new Set(known)
  const unknown = [...names].filter((name) => name.startsWith(SETTING_PREFIX) && !real.has(name)).sort()
  return unknown.map((name) => {
    const near = closest(name, known)
    return near.length > 0
      ? `Unknown setting ${name}; did you mean ${near.join(' or ')}?`
      : `Unknown setting ${name}; the ${SETTING_PREFIX}* settings are ${[...known].sort().join(', ')}`
  })
}

/**
 * The known names nearest to `name`, if near enough to be what was meant. Case is
 * a typo like any other (compared upper-cased). Near enough: a third of the part
 * after the prefix may be wrong, at least 2 edits (a swap of two letters is 2):
 * DNS_TIMEOUT for DNS_TIMEOUT_MS is, BANANA for any setting is not.
 */
function closest(name: string, known: readonly string[]): string[] {
  const typed = name.toUpperCase()
  const allowed = Math.max(2, Math.floor((name.length - SETTING_PREFIX.length) / 3))
  let best = Infinity
  let near: string[] = []
  for (const candidate of known) {
    const d = distance(typed, candidate)
    if (d > allowed || d > best) continue
    if (d < best) {
      best = d
      near = []
    }
    near.push(candidate)
  }
  return near.sort()
}
