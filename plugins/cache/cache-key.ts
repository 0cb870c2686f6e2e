// The cache key is the endpoint plus its validated, normalized input — never the
// format or shaping controls, which are applied after the cache.

function stable(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined'
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`
  const keys = Object.keys(value).sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`).join(',')}}`
}

export function cacheKey(endpoint: string, input: unknown): string {
  return `${endpoint}\u0000${stable(input)}`
}
