import { z } from 'zod'

/** The site's https port: 443 unless the site lives elsewhere (a staging host on 8443). */
export const HttpsPortParam = z
  .string()
  .regex(/^\d{1,5}$/, 'give a port number from 1 to 65535')
  .transform(Number)
  .refine((port) => port >= 1 && port <= 65_535, 'ports run from 1 to 65535')
  .optional()
  .transform((port) => port ?? 443)
  .meta({ description: 'The https port the TLS and web areas check (443 by default)', example: '443' })
