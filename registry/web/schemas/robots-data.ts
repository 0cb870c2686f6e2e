import { z } from 'zod'
import { ChainStopData, FallbackData, HopData } from './web-data.ts'

export const RobotsData = z.object({
  host: z.string(),
  url: z.string().meta({ description: 'The robots.txt URL first requested' }),
  final_url: z.string(),
  fallback: FallbackData,
  status: z.number().int().nullable(),
  availability: z.enum(['found', 'unavailable', 'unreachable']).meta({
    description: 'RFC 9309 §2.3.1: found (2xx); unavailable (4xx, or more than 5 redirects): crawlers may crawl everything; unreachable (5xx, or the chain failed): crawlers must assume everything is disallowed',
  }),
  access: z.enum(['rules', 'allow_all', 'disallow_all']).meta({ description: 'What a crawler does: follow the rules, or the blanket answer the status implies' }),
  access_reason: z.string(),
  content_type: z.string().nullable(),
  size_bytes: z.number().int(),
  truncated: z.boolean().meta({ description: 'Over 500 KiB; RFC 9309 lets crawlers ignore the rest' }),
  line_count: z.number().int(),
  groups: z.array(
    z.object({
      user_agents: z.array(z.string()),
      rules: z.array(z.object({ type: z.enum(['allow', 'disallow']), path: z.string(), line: z.number().int() })),
      crawl_delay: z.number().nullable().meta({ description: 'Not in RFC 9309, but read by several crawlers' }),
      line: z.number().int(),
    }),
  ),
  sitemaps: z.array(z.object({ url: z.string(), line: z.number().int() })),
  other_records: z.array(z.object({ name: z.string(), value: z.string(), line: z.number().int() })),
  problems: z.array(z.object({ line: z.number().int().nullable(), severity: z.enum(['error', 'warning', 'info']), message: z.string() })),
  all_disallowed: z.boolean().meta({ description: 'The * group disallows / with no allow rule' }),
  redirects: z.array(HopData),
  stopped: ChainStopData,
})
