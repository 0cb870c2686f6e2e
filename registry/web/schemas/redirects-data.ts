import { z } from 'zod'
import { ChainStopData, FallbackData, HopData } from './web-data.ts'

// /api/web/redirects: the chain hop by hop (plugins/web/web-redirects.ts follows it).

export const RedirectsData = z.object({
  host: z.string(),
  start_url: z.string(),
  final_url: z.string().meta({ description: 'The last URL that answered' }),
  final_status: z.number().int().nullable(),
  fallback: FallbackData,
  hops: z.array(HopData),
  hop_count: z.number().int(),
  redirect_count: z.number().int(),
  stopped: ChainStopData,
  stop_message: z.string().nullable(),
  https_upgrade: z.boolean().meta({ description: 'The chain goes from http:// to https:// and ends on https' }),
  https_downgrade: z.boolean().meta({ description: 'A hop goes from https:// back to http://' }),
  cross_host: z.boolean().meta({ description: 'The chain leaves the starting host' }),
  max_hops: z.number().int(),
  total_ms: z.number(),
})

export type Redirects = z.infer<typeof RedirectsData>
