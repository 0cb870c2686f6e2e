import { z } from 'zod'

// Shapes shared by the /api/web/* answers.

export const HeaderFieldData = z.object({ name: z.string().meta({ description: 'Lowercased' }), value: z.string() })

export const TlsInfoData = z
  .object({
    protocol: z.string().nullable(),
    cipher: z.string().nullable(),
    alpn: z.string().nullable(),
    authorized: z.boolean().meta({ description: 'The chain verifies against the trusted roots and names the host' }),
    authorization_error: z.string().nullable(),
  })
  .meta({ description: 'The TLS session (null over plain http); /api/tls/* analyzes certificates in depth' })

export const TimingData = z.object({
  dns_ms: z.number(),
  connect_ms: z.number(),
  tls_ms: z.number().nullable(),
  first_byte_ms: z.number(),
  download_ms: z.number(),
  total_ms: z.number(),
})

export const HttpVersionData = z.enum(['1.0', '1.1', '2'])

export const FallbackData = z
  .object({ from_url: z.string(), to_url: z.string(), reason: z.string(), message: z.string() })
  .nullable()
  .meta({ description: 'A bare host whose https could not be reached was asked over http instead' })

export const ChainStopData = z.enum(['final', 'loop', 'too_many_redirects', 'blocked', 'error', 'invalid_location']).meta({
  description: 'final: a page that does not redirect; blocked: a hop pointed at an address the service refuses (never connected)',
})

export const HopData = z.object({
  url: z.string(),
  status: z.number().int().nullable(),
  location: z.string().nullable(),
  next_url: z.string().nullable(),
  http_version: HttpVersionData.nullable(),
  address: z.string().nullable(),
  time_ms: z.number().nullable(),
  upgrade_to_https: z.boolean(),
  downgrade_to_http: z.boolean(),
  cross_host: z.boolean(),
  blocked: z.boolean(),
  error: z.object({ reason: z.string(), message: z.string() }).nullable(),
})

export const WebHeadersData = z.object({
  host: z.string(),
  url: z.string().meta({ description: 'The first URL requested' }),
  final_url: z.string(),
  fallback: FallbackData,
  status: z.number().int(),
  status_text: z.string(),
  http_version: HttpVersionData,
  address: z.string(),
  port: z.number().int(),
  headers: z.array(HeaderFieldData).meta({ description: 'In the order received; repeated headers appear once per value' }),
  header_count: z.number().int(),
  redirects: z.array(HopData).meta({ description: 'The redirects followed before the final response (at most 10 requests in all)' }),
  stopped: ChainStopData,
  stop_message: z.string().nullable(),
  timing: TimingData.meta({ description: 'Of the final request' }),
  chain_ms: z.number(),
  body: z.object({
    bytes_read: z.number().int(),
    truncated: z.boolean().meta({ description: 'Longer than the read limit; the rest was not downloaded' }),
    read_limit: z.number().int(),
    content_length: z.number().int().nullable(),
    content_type: z.string().nullable(),
    error: z.string().nullable(),
  }),
  tls: TlsInfoData.nullable(),
})
