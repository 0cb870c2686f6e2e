import type { z } from 'zod'

// The field names an endpoint's answer can have, read once from its data schema,
// so fields= and exclude= can tell a typo from a field that is merely absent in
// this particular answer (an optional one, an empty list). Keys are client
// strings compared against it, so children live in Maps: "__proto__" or
// "constructor" is an unknown name like any other.

export interface FieldTree {
  /** Named fields below this point; 'any' where the schema allows any key (records, unknown). */
  readonly children: ReadonlyMap<string, FieldTree> | 'any'
}

const ANY: FieldTree = Object.freeze({ children: 'any' as const })
const LEAF: FieldTree = Object.freeze({ children: new Map<string, FieldTree>() })

interface ZodInternals {
  _zod: { def: Record<string, unknown> & { type: string } }
}

function defOf(schema: unknown): (Record<string, unknown> & { type: string }) | undefined {
  return (schema as Partial<ZodInternals> | undefined)?._zod?.def
}

/** Zod 4 schema → tree of the fields its (input-side) values can have. Unknown kinds allow anything. */
export function compileFieldTree(schema: z.ZodType): FieldTree {
  const seen = new Map<unknown, FieldTree>()
  const visit = (node: unknown): FieldTree => {
    const def = defOf(node)
    if (!def) return ANY
    const known = seen.get(node)
    if (known) return known
    switch (def.type) {
      case 'object': {
        const children = new Map<string, FieldTree>()
        const tree: FieldTree = { children }
        // Registered before the fields are read: a recursive (lazy) schema ends here.
        seen.set(node, tree)
        for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) children.set(key, visit(value))
        if (def.catchall !== undefined && defOf(def.catchall)?.type !== 'never') return ANY
        return tree
      }
      case 'array':
        return visit(def.element)
      case 'set':
        return visit(def.valueType)
      case 'tuple':
        return merge([...(def.items as unknown[]), ...(def.rest ? [def.rest] : [])].map(visit))
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'catch':
      case 'readonly':
      case 'nonoptional':
        return visit(def.innerType)
      case 'pipe':
        // Resolvers return the schema's input side; the answer carries what they returned.
        return visit(def.in)
      case 'lazy':
        return visit((def.getter as () => unknown)())
      case 'union':
        return merge((def.options as unknown[]).map(visit))
      case 'intersection':
        return merge([visit(def.left), visit(def.right)])
      case 'record':
      case 'map':
      case 'any':
      case 'unknown':
      case 'custom':
        return ANY
      default:
        // Scalars (string, number, enum, literal, date, ...): no fields below.
        return LEAF
    }
  }
  return visit(schema)
}

function merge(trees: readonly FieldTree[]): FieldTree {
  if (trees.some((t) => t.children === 'any')) return ANY
  const children = new Map<string, FieldTree>()
  for (const tree of trees) {
    for (const [key, sub] of tree.children as ReadonlyMap<string, FieldTree>) {
      const there = children.get(key)
      children.set(key, there ? merge([there, sub]) : sub)
    }
  }
  return children.size === 0 ? LEAF : { children }
}

export type FieldLookup = { ok: true } | { ok: false; missing: string; under: string; available: string[] }

/** Whether the dotted path names a field the schema has; if not, where it stops and what is there instead. */
export function findField(tree: FieldTree, path: readonly string[]): FieldLookup {
  let node = tree
  for (let i = 0; i < path.length; i++) {
    const children = node.children
    if (children === 'any') return { ok: true }
    const next = children.get(path[i]!)
    if (next === undefined) return { ok: false, missing: path[i]!, under: path.slice(0, i).join('.'), available: [...children.keys()] }
    node = next
  }
  return { ok: true }
}
