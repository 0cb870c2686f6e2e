// Which names SPF will put in a query. RFC 7208 §4.3 makes a malformed <domain>
// (empty or over-long label, over 253 characters, a single label) a "none" before
// any DNS; a malformed name produced by a mechanism is treated as non-existent.

export function isQueryableName(name: string): boolean {
  const bare = name.endsWith('.') ? name.slice(0, -1) : name
  if (bare === '' || bare.length > 253) return false
  return bare.split('.').every((label) => label.length >= 1 && label.length <= 63)
}

/** A <domain> check_host() will look at: queryable and with at least two labels, not a [literal]. */
export function isSpfDomain(name: string): boolean {
  const bare = name.endsWith('.') ? name.slice(0, -1) : name
  return isQueryableName(bare) && bare.includes('.') && !bare.startsWith('[')
}

export function sameDomain(a: string, b: string): boolean {
  return a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '')
}

/** name equals target or is below it (the ptr mechanism's test). */
export function isAtOrBelow(name: string, target: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, '')
  const t = target.toLowerCase().replace(/\.$/, '')
  return n === t || n.endsWith(`.${t}`)
}
