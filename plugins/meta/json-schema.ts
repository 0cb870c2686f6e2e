import { z } from 'zod'

export type JsonSchema = Record<string, unknown>

/**
 * zod -> JSON Schema 2020-12 (OpenAPI 3.1's dialect). Input mode for parameters
 * (what a client sends), output mode for data (what it gets back).
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema
  delete json.$schema
  return json
}
