// An answer's data as one CSV table, keeping every value JSON has (README,
// "format=csv"):
// - columns are dotted paths in data (resolver.name); lists of objects are
//   indexed (chain.0.name);
// - a list of plain values, and an empty list or object, is one cell holding its
//   JSON text: the strings of a TXT record may contain ; , or quotes themselves,
//   so no separator could keep their boundaries, and [] is not "nothing";
// - rows: one per item of the list the descriptor names (csvRows), its fields
//   under the list's path with the index left out (records.type), every other
//   value of data repeated on each row: those are data too, and a file saved
//   from the body must hold the whole answer (headers carry only the envelope).
//   An empty list leaves its cells empty in one row that carries the rest, so
//   NXDOMAIN still says rcode. Data that is itself a list is a row per item;
//   any other data is one row.
// Column names come from the data's keys (an upstream's, a client's): rows are
// null-prototype objects, so a column called "__proto__" is a column.

export type Cell = string | number | boolean | null
export type Row = Record<string, Cell>

export interface Table {
  fields: string[]
  data: Cell[][]
}

function isScalar(value: unknown): value is string | number | boolean | null | undefined {
  return value === null || value === undefined || typeof value !== 'object'
}

function join(prefix: string, key: string): string {
  return prefix ? `${prefix}.${key}` : key
}

interface Sink {
  row: Row
  /** The column of the value itself when it is plain (prefix ''). */
  top: string
  /** The rows list: nothing is written for it, and later cells go to `after`. */
  split?: string
  after?: Row
}

/**
 * Writes value's cells into the row its sink points at. At `split` (the rows
 * list) the sink moves on to the row after it, so the columns before and after
 * the list keep their places around the list's own.
 */
function flattenInto(sink: Sink, prefix: string, value: unknown): void {
  if (prefix === sink.split && sink.after) {
    sink.row = sink.after
    return
  }
  const column = prefix || sink.top
  if (isScalar(value)) {
    sink.row[column] = value ?? null
    return
  }
  if (Array.isArray(value)) {
    if (value.every(isScalar)) {
      sink.row[column] = JSON.stringify(value)
      return
    }
    value.forEach((item, i) => flattenInto(sink, join(prefix, String(i)), item))
    return
  }
  const object = value as Record<string, unknown>
  let empty = true
  for (const key of Object.keys(object)) {
    const v = object[key]
    // Like JSON: a key whose value is undefined is not there.
    if (v === undefined) continue
    empty = false
    flattenInto(sink, join(prefix, key), v)
  }
  if (empty) sink.row[column] = '{}'
}

/** One row: value's cells under dotted names; a plain value's column is `top`. */
export function flatten(value: unknown, top = 'value'): Row {
  const row = Object.create(null) as Row
  flattenInto({ row, top }, '', value)
  return row
}

function listAt(data: unknown, path: string): unknown[] | undefined {
  let current = data
  for (const key of path.split('.')) {
    if (isScalar(current) || Array.isArray(current) || !Object.hasOwn(current, key)) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return Array.isArray(current) ? current : undefined
}

export interface RowsSpec {
  /** Dotted path of the list whose items are the rows (the descriptor's csvRows). */
  path: string | undefined
  /** The columns of one item below its list's path ('' for a plain item), for a list that is empty (from the schema). */
  emptyColumns: () => readonly string[]
}

/** data as a table: see the rules at the top of this file. */
export function toTable(data: unknown, rows: RowsSpec): Table {
  if (Array.isArray(data)) return listTable(Object.create(null) as Row, '', data, Object.create(null) as Row, rows.emptyColumns)
  const list = rows.path === undefined ? undefined : listAt(data, rows.path)
  if (list === undefined || rows.path === undefined) {
    const row = flatten(data)
    const fields = Object.keys(row)
    return { fields, data: [fields.map((f) => row[f] ?? null)] }
  }
  const before = Object.create(null) as Row
  const after = Object.create(null) as Row
  flattenInto({ row: before, top: 'value', split: rows.path, after }, '', data)
  return listTable(before, rows.path, list, after, rows.emptyColumns)
}

function listTable(before: Row, path: string, items: readonly unknown[], after: Row, emptyColumns: () => readonly string[]): Table {
  // Items are flattened with names relative to the item ('' for a plain item) and
  // named under the list's path once per column: prefixing every cell's name in
  // every row made strings that cost more than the rest of the work together.
  // (An item's key "" is then named like the item itself: same column, its own row.)
  const rows = items.map((item) => flatten(item, ''))
  const own = new Set<string>()
  for (const row of rows) for (const key of Object.keys(row)) own.add(key)
  if (rows.length === 0) {
    for (const column of emptyColumns()) own.add(column)
    if (own.size === 0) own.add('')
  }
  const itemFields = [...own]
  const head = Object.values(before)
  const tail = Object.values(after)
  const fields = [...Object.keys(before), ...itemFields.map((f) => (f ? join(path, f) : path || 'value')), ...Object.keys(after)]
  const cells = (row: Row): Cell[] => [...head, ...itemFields.map((f) => row[f] ?? null), ...tail]
  const data = rows.length > 0 ? rows.map(cells) : head.length + tail.length > 0 ? [cells(Object.create(null) as Row)] : []
  return { fields, data }
}
