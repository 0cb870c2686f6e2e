import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'
import { pathParams } from '../../runtime/registry.ts'
import type { JsonSchema } from './json-schema.ts'
import { toJsonSchema } from './json-schema.ts'

export interface ParamDescription {
  name: string
  in: 'path' | 'query' | 'body'
  required: boolean
  schema: JsonSchema
  type: string
  description?: string
  default?: unknown
  enum?: string[]
}

function typeName(schema: JsonSchema): string {
  if (typeof schema.type === 'string') return schema.type
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(typeName).join(' | ')
  return 'any'
}

/** The endpoint's own parameters (not the shared query controls), from its zod schema. */
export function describeParams(endpoint: AnyEndpoint): ParamDescription[] {
  const schema = toJsonSchema(endpoint.params, 'input')
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((schema.required ?? []) as string[])
  const inPath = new Set(pathParams(endpoint.path))
  return Object.entries(properties).map(([name, property]) => {
    const p: ParamDescription = {
      name,
      in: name === 'body' ? 'body' : inPath.has(name) ? 'path' : 'query',
      required: inPath.has(name) || required.has(name),
      schema: property,
      type: typeName(property),
    }
    if (typeof property.description === 'string') p.description = property.description
    if (property.default !== undefined) p.default = property.default
    if (Array.isArray(property.enum)) p.enum = property.enum as string[]
    return p
  })
}
