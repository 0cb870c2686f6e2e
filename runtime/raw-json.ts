// Upstream answers (RDAP, RIPEstat) are other people's JSON: every member may be
// missing, null, the wrong type or an empty string (20c.com's RDAP has
// `"port43": ""`, `"rel": null`). The normalizers read through these helpers so a
// sloppy server degrades a field, never the whole answer. They belong to no one
// plugin, so they live here.

export type RawObject = Record<string, unknown>

export function obj(value: unknown): RawObject | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as RawObject) : null
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}

export function objects(value: unknown): RawObject[] {
  return arr(value).flatMap((v) => {
    const o = obj(v)
    return o ? [o] : []
  })
}

/** A non-empty trimmed string, or null. */
export function str(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const trimmed = value.trim()
  return trimmed === '' ? null : trimmed
}

export function strings(value: unknown): string[] {
  return arr(value).flatMap((v) => {
    const s = str(v)
    return s === null ? [] : [s]
  })
}

export function int(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null
}

export function bool(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null
}

export function unique<T>(values: Iterable<T>): T[] {
  return [...new Set(values)]
}
