// One CSV row per object: nested keys become dotted column names, arrays of
// scalars are joined with ";", arrays of objects are indexed (records.0.type).
// Column names come from the data's keys (an upstream's, a client's): rows are
// null-prototype objects, so a column called "__proto__" is a column.

export type Row = Record<string, string | number | boolean | null>

function isScalar(value: unknown): value is string | number | boolean | null | undefined {
  return value === null || value === undefined || typeof value !== 'object'
}

function flattenInto(row: Row, prefix: string, value: unknown): void {
  if (isScalar(value)) {
    row[prefix] = value === undefined ? null : (value as string | number | boolean | null)
    return
  }
  if (Array.isArray(value)) {
    if (value.every(isScalar)) {
      row[prefix] = value.map((v) => (v === null || v === undefined ? '' : String(v))).join(';')
      return
    }
    value.forEach((item, i) => flattenInto(row, prefix ? `${prefix}.${i}` : String(i), item))
    return
  }
  const entries = Object.entries(value as Record<string, unknown>)
  if (entries.length === 0 && prefix) row[prefix] = null
  for (const [key, v] of entries) flattenInto(row, prefix ? `${prefix}.${key}` : key, v)
}

export function flatten(value: unknown): Row {
  const row = Object.create(null) as Row
  flattenInto(row, isScalar(value) ? 'value' : '', value)
  return row
}

/** Rows plus the union of their columns, in first-seen order. */
export function toTable(rows: readonly unknown[]): { fields: string[]; data: Array<Array<string | number | boolean | null>> } {
  const flat = rows.map(flatten)
  const seen = new Set<string>()
  for (const row of flat) for (const key of Object.keys(row)) seen.add(key)
  const fields = [...seen]
  return { fields, data: flat.map((row) => fields.map((f) => row[f] ?? null)) }
}
