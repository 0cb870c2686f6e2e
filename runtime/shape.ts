import { addressSortKeys } from './address-sort-key.ts'
import type { Controls } from './controls.ts'
import type { Pagination } from './envelope.ts'
import { InputError } from './errors.ts'
import type { FieldTree } from './field-tree.ts'
import { findField } from './field-tree.ts'

// Shaping runs on every request after the cache, so it never mutates its input
// (the cached data): every change copies only the objects on the changed path.
//
// Paths are client strings. They are only ever compared with the data's own keys
// (Object.hasOwn) and kept in null-prototype trees: "__proto__", "constructor" or
// "prototype" name nothing but a field of that name, and never reach a prototype.

type Json = unknown
/** A null-prototype object: a client-chosen key can only ever be its own property. */
type Tree = { [key: string]: Tree | true }

const hasOwn = Object.hasOwn

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Sets an own property, even one named __proto__ (which plain assignment would take as the prototype). */
function put(target: Record<string, Json>, key: string, value: Json): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else target[key] = value
}

function getPath(value: Json, path: readonly string[]): Json {
  let current = value
  for (const key of path) {
    if (!isObject(current) || !hasOwn(current, key)) return undefined
    current = current[key]
  }
  return current
}

function setPath(value: Json, path: readonly string[], replacement: Json, depth = 0): Json {
  if (depth === path.length) return replacement
  if (!isObject(value)) return value
  const key = path[depth]!
  if (!hasOwn(value, key)) return value
  const copy = { ...value }
  put(copy, key, setPath(value[key], path, replacement, depth + 1))
  return copy
}

function compareValues(a: Json, b: Json): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b)
  return collator.compare(String(a), String(b))
}

/** The list sorted by key, or undefined when no item has the key. */
function sortList(list: readonly Json[], key: readonly string[], order: 'asc' | 'desc'): Json[] | undefined {
  const keyed: Array<{ item: Json; index: number; value: Json }> = list.map((item, index) => ({ item, index, value: getPath(item, key) }))
  if (keyed.every((k) => k.value === undefined || k.value === null)) return undefined
  // IPs and prefixes sort by address: decided once per list, compared as precomputed keys.
  const addresses = addressSortKeys(keyed.map((k) => k.value))
  if (addresses) for (const k of keyed) k.value = addresses[k.index]
  const compare = addresses ? (a: Json, b: Json) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0) : compareValues
  const direction = order === 'asc' ? 1 : -1
  keyed.sort((x, y) => {
    // Items without the key go last in either direction; ties keep input order.
    const xm = x.value === undefined || x.value === null
    const ym = y.value === undefined || y.value === null
    if (xm || ym) return xm === ym ? x.index - y.index : xm ? 1 : -1
    return compare(x.value, y.value) * direction || x.index - y.index
  })
  return keyed.map((k) => k.item)
}

function unknownSortKey(key: readonly string[], lists: ReadonlyArray<readonly Json[]>): InputError {
  const sortable = new Set<string>()
  for (const list of lists) {
    const sample = list.find(isObject)
    if (sample) for (const k of Object.keys(sample)) if (typeof sample[k] !== 'object' || sample[k] === null) sortable.add(k)
  }
  return new InputError(
    `Cannot sort by "${key.join('.')}": no item has that field.` + (sortable.size ? ` Sortable fields: ${[...sortable].join(', ')}.` : ''),
    { param: 'sort', value: key.join('.'), sortable: [...sortable] },
  )
}

/** sort/limit/offset on data with no list: a mistake to report, not to ignore. */
function noList(controls: Controls): InputError {
  const param = controls.sort !== undefined ? 'sort' : controls.limit !== undefined ? 'limit' : 'offset'
  const value = param === 'sort' ? controls.sort!.join('.') : String(param === 'limit' ? controls.limit : controls.offset)
  return new InputError(`Query parameter "${param}" does not apply here: this endpoint has no list to sort/page. Remove it.`, { param, value })
}

function toTree(paths: readonly string[][]): Tree {
  const root: Tree = Object.create(null) as Tree
  for (const path of paths) {
    let node = root
    for (let i = 0; i < path.length; i++) {
      const key = path[i]!
      if (i === path.length - 1) {
        node[key] = true
      } else {
        const next = node[key]
        if (next === true) break
        if (next === undefined) {
          const child = Object.create(null) as Tree
          node[key] = child
          node = child
        } else {
          node = next
        }
      }
    }
  }
  return root
}

function pick(value: Json, tree: Tree): Json {
  if (Array.isArray(value)) return value.map((item) => pick(item, tree))
  if (!isObject(value)) return value
  const out: Record<string, Json> = {}
  for (const key of Object.keys(tree)) {
    if (!hasOwn(value, key)) continue
    const sub = tree[key]!
    put(out, key, sub === true ? value[key] : pick(value[key], sub))
  }
  return out
}

function omit(value: Json, tree: Tree): Json {
  if (Array.isArray(value)) return value.map((item) => omit(item, tree))
  if (!isObject(value)) return value
  const out: Record<string, Json> = {}
  for (const key of Object.keys(value)) {
    const sub = tree[key]
    if (sub === true) continue
    put(out, key, sub === undefined ? value[key] : omit(value[key], sub))
  }
  return out
}

/** Whether any object along the path (through lists) has the field: an answer richer than its schema still counts. */
function dataHas(data: Json, path: readonly string[]): boolean {
  let nodes: Json[] = [data]
  for (const key of path) {
    const next: Json[] = []
    const visit = (node: Json): void => {
      if (Array.isArray(node)) node.forEach(visit)
      else if (isObject(node) && hasOwn(node, key)) next.push(node[key])
    }
    nodes.forEach(visit)
    if (next.length === 0) return false
    nodes = next
  }
  return true
}

/** fields= / exclude= naming a field the answer cannot have: a typo worth a 400, as for sort. */
function checkFields(param: 'fields' | 'exclude', paths: readonly string[][], fields: FieldTree, data: Json): void {
  for (const path of paths) {
    const found = findField(fields, path)
    if (found.ok || dataHas(data, path)) continue
    const where = found.under === '' ? 'This endpoint\'s answer' : `"${found.under}"`
    const listed = found.available.length ? ` Fields there: ${found.available.join(', ')}.` : ` "${found.under}" has no fields below it.`
    throw new InputError(`Query parameter "${param}" names "${path.join('.')}", which does not exist: ${where} has no field "${found.missing}".${listed}`, {
      param,
      value: path.join('.'),
      fields: found.available,
    })
  }
}

export interface Shaped {
  data: Json
  pagination: Pagination | undefined
}

/** Splits the descriptor's dotted list paths once, at route generation. */
export function compileListPaths(lists: readonly string[] | undefined): string[][] {
  return (lists ?? []).map((l) => (l === '' ? [] : l.split('.')))
}

export function hasShaping(controls: Controls): boolean {
  return (
    controls.sort !== undefined ||
    controls.limit !== undefined ||
    controls.offset !== 0 ||
    controls.fields !== undefined ||
    controls.exclude !== undefined
  )
}

/**
 * sort/order, then offset/limit over the lists (data itself when it is an array),
 * then fields, then exclude.
 */
export function shape(data: Json, listPaths: readonly string[][], controls: Controls, fields?: FieldTree): Shaped {
  if (fields !== undefined) {
    if (controls.fields !== undefined) checkFields('fields', controls.fields, fields, data)
    if (controls.exclude !== undefined) checkFields('exclude', controls.exclude, fields, data)
  }
  let result = data
  let pagination: Pagination | undefined
  const paths = Array.isArray(data) ? [[]] : listPaths
  const paginate = controls.limit !== undefined || controls.offset !== 0
  if (controls.sort !== undefined || paginate) {
    if (paths.length === 0) throw noList(controls)
    const totals: Record<string, number> = {}
    const nonEmpty: Json[][] = []
    let sorted = false
    for (const path of paths) {
      const list = getPath(result, path)
      if (!Array.isArray(list)) continue
      let next: Json[] = list
      if (list.length > 0) nonEmpty.push(list)
      if (controls.sort !== undefined) {
        const s = sortList(next, controls.sort, controls.order)
        if (s) {
          next = s
          sorted = true
        }
      }
      if (paginate) {
        totals[path.join('.')] = list.length
        next = next.slice(controls.offset, controls.limit === undefined ? undefined : controls.offset + controls.limit)
      }
      result = setPath(result, path, next)
    }
    // A key that no list has is a typo worth a 400; empty lists prove nothing, and
    // neither does a key the schema gives the items of a list that happens to be
    // empty here (sort=asn on a route with no origins, while its findings are not).
    const sortKey = controls.sort
    const declared = sortKey !== undefined && fields !== undefined && paths.some((path) => findField(fields, [...path, ...sortKey]).ok)
    if (sortKey !== undefined && !sorted && !declared && nonEmpty.length > 0) throw unknownSortKey(sortKey, nonEmpty)
    const names = Object.keys(totals)
    if (paginate && names.length > 0) {
      pagination = { total: totals[names[0]!]!, limit: controls.limit, offset: controls.offset }
      if (names.length > 1) pagination.totals = totals
    }
  }
  if (controls.fields !== undefined) result = pick(result, toTree(controls.fields))
  if (controls.exclude !== undefined) result = omit(result, toTree(controls.exclude))
  return { data: result, pagination }
}
