import { InputError } from './errors.ts'

// The query controls every endpoint accepts (DESIGN §2). Parsed once per request;
// each bad value is a 400 naming the parameter.

export interface Controls {
  format: string
  pretty: boolean
  fields: string[][] | undefined
  exclude: string[][] | undefined
  includeMeta: boolean
  includeLinks: boolean
  sort: string[] | undefined
  order: 'asc' | 'desc'
  limit: number | undefined
  offset: number
}

export const CONTROL_NAMES = [
  'format',
  'pretty',
  'fields',
  'exclude',
  'include_meta',
  'include_links',
  'compact',
  'sort',
  'order',
  'limit',
  'offset',
] as const

export const MAX_LIMIT = 1000
const MAX_PATHS = 64

export const DEFAULT_CONTROLS: Readonly<Controls> = Object.freeze({
  format: 'json',
  pretty: false,
  fields: undefined,
  exclude: undefined,
  includeMeta: true,
  includeLinks: true,
  sort: undefined,
  order: 'asc',
  limit: undefined,
  offset: 0,
})

const TRUE = new Set(['true', '1', 'yes', ''])
const FALSE = new Set(['false', '0', 'no'])

export function parseBoolean(param: string, value: string): boolean {
  const v = value.toLowerCase()
  if (TRUE.has(v)) return true
  if (FALSE.has(v)) return false
  throw new InputError(`Query parameter "${param}" must be true or false (also 1/0, yes/no); got "${value}".`, {
    param,
    value,
    allowed: ['true', 'false', '1', '0', 'yes', 'no'],
  })
}

function parseInteger(param: string, value: string, min: number, max: number): number {
  const n = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new InputError(`Query parameter "${param}" must be an integer from ${min} to ${max}; got "${value}".`, {
      param,
      value,
      min,
      max,
    })
  }
  return n
}

function parsePath(param: string, text: string): string[] {
  const segments = text.split('.')
  if (segments.some((s) => s === '')) {
    throw new InputError(`Query parameter "${param}" has an empty path segment in "${text}"; use dotted names like "records.ttl".`, {
      param,
      value: text,
    })
  }
  return segments
}

function parsePathList(param: string, value: string): string[][] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  if (items.length === 0) {
    throw new InputError(`Query parameter "${param}" needs at least one field name (comma-separated, dotted for nested fields).`, {
      param,
      value,
    })
  }
  if (items.length > MAX_PATHS) {
    throw new InputError(`Query parameter "${param}" names ${items.length} fields; at most ${MAX_PATHS} are allowed.`, { param })
  }
  return items.map((item) => parsePath(param, item))
}

/**
 * Reads the controls from a query string. `claimed` are names the endpoint uses as
 * its own parameters (an endpoint that pages itself owns limit/offset).
 */
export function parseControls(query: URLSearchParams, formats: ReadonlySet<string>, claimed: ReadonlySet<string>): Controls {
  const controls: Controls = { ...DEFAULT_CONTROLS }
  let compact = false
  let includeMeta: boolean | undefined
  let includeLinks: boolean | undefined
  for (const name of CONTROL_NAMES) {
    if (claimed.has(name)) continue
    const value = query.get(name)
    if (value === null) continue
    switch (name) {
      case 'format': {
        const f = value.toLowerCase()
        if (!formats.has(f)) {
          throw new InputError(`Query parameter "format" must be one of ${[...formats].join(', ')}; got "${value}".`, {
            param: 'format',
            value,
            allowed: [...formats],
          })
        }
        controls.format = f
        break
      }
      case 'pretty':
        controls.pretty = parseBoolean(name, value)
        break
      case 'fields':
        controls.fields = parsePathList(name, value)
        break
      case 'exclude':
        controls.exclude = parsePathList(name, value)
        break
      case 'include_meta':
        includeMeta = parseBoolean(name, value)
        break
      case 'include_links':
        includeLinks = parseBoolean(name, value)
        break
      case 'compact':
        compact = parseBoolean(name, value)
        break
      case 'sort':
        controls.sort = parsePath(name, value.trim())
        break
      case 'order': {
        const o = value.toLowerCase()
        if (o !== 'asc' && o !== 'desc') {
          throw new InputError(`Query parameter "order" must be asc or desc; got "${value}".`, {
            param: 'order',
            value,
            allowed: ['asc', 'desc'],
          })
        }
        controls.order = o
        break
      }
      case 'limit':
        controls.limit = parseInteger(name, value, 1, MAX_LIMIT)
        break
      case 'offset':
        controls.offset = parseInteger(name, value, 0, 1_000_000_000)
        break
    }
  }
  // An explicit include_* wins over compact (DESIGN §2).
  controls.includeMeta = includeMeta ?? !compact
  controls.includeLinks = includeLinks ?? !compact
  return controls
}
