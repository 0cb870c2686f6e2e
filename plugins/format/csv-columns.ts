import { z } from 'zod'

// The columns one item of a list has, read from the descriptor's data schema: an
// empty list (NXDOMAIN's records) has no item to take them from, and a header row
// that names them says "no records" where an empty file says nothing. Read from
// the schema's JSON Schema (zod's public conversion), once per schema and list.

type JsonSchema = { [key: string]: unknown }

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** $ref targets inside the converted document ("#", "#/$defs/Name"). */
function resolve(root: JsonSchema, node: JsonSchema): JsonSchema {
  const ref = node.$ref
  if (typeof ref !== 'string' || !ref.startsWith('#')) return node
  let target: unknown = root
  for (const part of ref.slice(1).split('/').filter(Boolean)) target = isSchema(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined
  return isSchema(target) ? target : {}
}

/** The alternatives a value of node may take (anyOf/oneOf/allOf); a null alternative has no fields. */
function alternatives(root: JsonSchema, node: JsonSchema): JsonSchema[] {
  const resolved = resolve(root, node)
  const options = [resolved.anyOf, resolved.oneOf, resolved.allOf].flatMap((list) => (Array.isArray(list) ? list.filter(isSchema) : []))
  if (options.length === 0) return [resolved]
  return options.flatMap((option) => alternatives(root, option)).filter((option) => option.type !== 'null')
}

function typeIs(node: JsonSchema, type: string): boolean {
  return node.type === type || (Array.isArray(node.type) && node.type.includes(type))
}

/** Dotted column names of a value of node, below prefix, in the schema's order ('' for a plain item itself). */
function columnsOf(root: JsonSchema, node: JsonSchema, prefix: string, out: Set<string>, open: Set<JsonSchema>): void {
  const options = alternatives(root, node)
  const leaf = (): void => void out.add(prefix)
  if (options.length === 0) return leaf()
  for (const option of options) {
    const properties = isSchema(option.properties) ? Object.entries(option.properties) : []
    // A list's cells depend on its items (JSON text, or indexed); a map's on its keys;
    // a schema that refers to itself stops at its own name: each is one column here.
    if (typeIs(option, 'array') || properties.length === 0 || open.has(option)) {
      leaf()
      continue
    }
    open.add(option)
    for (const [key, child] of properties) if (isSchema(child)) columnsOf(root, child, prefix ? `${prefix}.${key}` : key, out, open)
    open.delete(option)
  }
}

/** The schema of the items of the list at path ('' for data itself), if the schema says. */
function itemSchema(root: JsonSchema, path: string): JsonSchema | undefined {
  let nodes = [root]
  for (const key of path ? path.split('.') : []) {
    nodes = nodes.flatMap((node) => alternatives(root, node)).flatMap((node) => {
      const child = isSchema(node.properties) ? node.properties[key] : undefined
      return isSchema(child) ? [child] : []
    })
  }
  const items = nodes.flatMap((node) => alternatives(root, node)).flatMap((node) => (isSchema(node.items) ? [node.items] : []))
  return items.length === 0 ? undefined : items.length === 1 ? items[0] : { anyOf: items }
}

const memo = new WeakMap<z.ZodType, Map<string, readonly string[]>>()

/** Columns of one item of the list at path, below that path ('' for a plain item); none when the schema does not say. */
export function itemColumns(schema: z.ZodType, path: string): readonly string[] {
  let byPath = memo.get(schema)
  if (!byPath) memo.set(schema, (byPath = new Map()))
  const known = byPath.get(path)
  if (known) return known
  let columns: readonly string[] = []
  try {
    const root = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema
    const item = itemSchema(root, path)
    if (item) {
      const out = new Set<string>()
      columnsOf(root, item, '', out, new Set())
      columns = Object.freeze([...out])
    }
  } catch {
    // A schema zod cannot convert: the list's header is its own name (toTable's fallback).
  }
  byPath.set(path, columns)
  return columns
}
