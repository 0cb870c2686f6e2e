import { z } from 'zod'

/** A boolean query parameter, spelled as the query controls spell theirs: true/false, 1/0, yes/no (any case). */
export function queryBoolean(options: { default: boolean; description: string }) {
  return z
    .preprocess(
      (v) => (typeof v === 'string' ? v.toLowerCase() : v),
      z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: () => 'must be true or false (also 1/0, yes/no)' }).default(options.default ? 'true' : 'false'),
    )
    .transform((v) => v === 'true' || v === '1' || v === 'yes')
    .meta({ description: options.description })
}
