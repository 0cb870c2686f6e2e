// The cache key is the endpoint plus its validated, normalized input — never the
// format or shaping controls, which are applied after the cache.

function stable(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined'
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`
  const keys = Object.keys(value)
  if (keys.length > 1) keys.sort()
  // A loop rather than map/join: this runs on every request of a cached endpoint.
  let out = '{'
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!
    out += `${i === 0 ? '' : ','}${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`
  }
  return `${out}}`
}

export function cacheKey(endpoint: string, input: unknown): string {
  return `${endpoint}\u0000${stable(input)}`
}
