import { z } from 'zod'

// Building blocks for descriptor params. Query values arrive as strings; these
// parse them strictly so "12abc" or "1e3" is a 400, not a silent 12 or 1000.

export function queryInt(options: { min: number; max: number; default?: number; description: string }) {
  const digits = z.string().regex(/^\d+$/, `must be a whole number from ${options.min} to ${options.max}`)
  const text = options.default === undefined ? digits : digits.default(String(options.default))
  return text
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(options.min, `must be at least ${options.min}`)
        .max(options.max, `must be at most ${options.max}`),
    )
    .meta({ description: options.description })
}

export function queryEnum<const T extends readonly [string, ...string[]]>(values: T, options: { default?: T[number]; description: string }) {
  const base = z.enum(values, { error: () => `must be one of ${values.join(', ')}` })
  return (options.default === undefined ? base : base.default(options.default)).meta({ description: options.description })
}
