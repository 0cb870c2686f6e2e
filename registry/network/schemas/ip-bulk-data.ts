import { z } from 'zod'

// POST /api/ip/bulk: many addresses at once, each answered from the bundled
// offline data and the loaded VRP set. Entries stay unknown in the body schema:
// a bad one is that line's error in the answer, never a 400 for the whole list.

/** DESIGN.md "Bounds": bulk lists take up to 100,000 entries. */
export const IP_BULK_MAX_ENTRIES = 100_000

const SHAPE_MESSAGE = 'expected a JSON array of addresses, {"ips": [...]}, or plain text (or CSV, first column) with one address per line'

const Entries = z.array(z.unknown(), { error: () => SHAPE_MESSAGE })

export const IpListBody = z
  .union([Entries, z.object({ ips: Entries }, { error: () => SHAPE_MESSAGE })], { error: () => SHAPE_MESSAGE })
  .transform((body, ctx) => {
    const list = Array.isArray(body) ? body : body.ips
    if (list.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'the list is empty; send at least one address' })
      return z.NEVER
    }
    return list
  })
  .meta({
    description: `IPv4 and IPv6 addresses, up to ${IP_BULK_MAX_ENTRIES.toLocaleString('en-US')}: a JSON array, {"ips": [...]}, or text with one per line (text/csv: the first column of each row; lines starting with # are skipped)`,
    example: ['8.8.8.8', '2001:4860:4860::8888', '192.0.2.1'],
  })

export const IpBulkResult = z
  .object({
    ip: z.string().optional().meta({ description: 'The address, canonical (RFC 5952 for IPv6)' }),
    version: z.union([z.literal(4), z.literal(6)]).optional(),
    asn: z.number().int().nullable().optional().meta({ description: 'Origin AS of the address in the bundled data; null when it has none' }),
    as_name: z.string().nullable().optional().meta({ description: "The AS's organization name in the bundled data" }),
    country: z.string().nullable().optional().meta({ description: 'ISO 3166-1 alpha-2 country of registration (not a geolocation of the host)' }),
    class: z.string().optional().meta({ description: 'IANA class: a special-purpose class (private, loopback, documentation, ...), else public, multicast or reserved' }),
    bogon: z.boolean().optional().meta({ description: 'Never a legitimate public source or destination, by the IANA registries (as /api/ip/{ip} says)' }),
    prefix: z.string().nullable().optional().meta({
      description:
        'The largest CIDR block containing the address inside its range in the bundled ASN data: for IPv4 mostly the prefix the AS announces in BGP (the data is built from RouteViews tables first), for IPv6 the RIR delegation. Not a live BGP lookup: null when the data has no range',
    }),
    rpki: z.enum(['valid', 'invalid', 'not-found']).nullable().optional().meta({
      description: 'RFC 6811 state of (prefix, asn) against the loaded VRP set; null when there is no prefix or ASN, or no VRP set is loaded',
    }),
    input: z.string().optional().meta({ description: 'The entry as sent (bad entries only)' }),
    error: z.object({ code: z.literal('bad_request'), message: z.string() }).optional().meta({ description: "Why the entry is not an address (that entry's error, not the request's)" }),
  })
  .meta({ description: 'One entry: the facts about the address, or its error' })

export const IpBulkData = z.object({
  count: z.number().int().meta({ description: 'Entries in the request' }),
  valid: z.number().int(),
  invalid: z.number().int(),
  results: z.array(IpBulkResult).meta({ description: 'One per entry, in the order sent' }),
  rpki: z
    .object({
      loaded: z.boolean(),
      vrps: z.number().int().nullable(),
      generated_at: z.string().nullable(),
      age_seconds: z.number().int().nullable(),
    })
    .meta({ description: 'The VRP set the rpki states come from (loaded: false, and every rpki null, before one has loaded)' }),
  data_source: z.object({ asn: z.string(), country: z.string() }).meta({ description: 'The offline data sets the answers come from (name and version; /api/ip/{ip} details them)' }),
})
