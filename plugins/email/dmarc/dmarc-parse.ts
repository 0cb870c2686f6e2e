import type { TagList } from '../tag-list.ts'
import { parseTagList } from '../tag-list.ts'

// A DMARC record (RFC 7489 §6.3, with the tags DMARCbis adds: np, psd, t). Every
// problem is kept with its tag, so the answer can say exactly what a receiver
// will ignore; the effective policy applies the RFC's defaults and inheritance
// (sp from p, np from sp).

export type Disposition = 'none' | 'quarantine' | 'reject'

export interface ReportUri {
  uri: string
  scheme: string | null
  /** mailto: the address; null otherwise. */
  address: string | null
  domain: string | null
  /** The "!size" suffix as written (e.g. "10m"), null when absent. */
  size_limit: string | null
  valid: boolean
  error: string | null
}

export interface DmarcPolicy {
  p: Disposition | null
  sp: Disposition | null
  np: Disposition | null
  pct: number
  adkim: 'r' | 's'
  aspf: 'r' | 's'
  fo: string[]
  rf: string[]
  ri: number
  rua: ReportUri[]
  ruf: ReportUri[]
  psd: 'y' | 'n' | 'u'
  t: 'y' | 'n'
}

export interface DmarcProblem {
  tag: string
  kind: 'syntax' | 'version' | 'invalid_value' | 'duplicate' | 'unknown_tag' | 'missing_p'
  message: string
}

export interface ParsedDmarc {
  tags: Array<{ name: string; value: string; known: boolean }>
  /** As written, or null where absent or invalid (before defaults). */
  explicit: Partial<Record<keyof DmarcPolicy, unknown>>
  policy: DmarcPolicy
  problems: DmarcProblem[]
}

export const KNOWN_TAGS = ['v', 'p', 'sp', 'np', 'pct', 'rua', 'ruf', 'adkim', 'aspf', 'fo', 'rf', 'ri', 'psd', 't'] as const

const DISPOSITIONS = new Set(['none', 'quarantine', 'reject'])

export function isDmarcRecord(text: string): boolean {
  return /^\s*v\s*=\s*DMARC1\s*(?:;|$)/i.test(text)
}

export function parseReportUri(raw: string): ReportUri {
  const text = raw.trim()
  const base: ReportUri = { uri: text, scheme: null, address: null, domain: null, size_limit: null, valid: false, error: null }
  // dmarc-uri = URI [ "!" 1*DIGIT [ "k" / "m" / "g" / "t" ] ]
  const bang = text.lastIndexOf('!')
  let uri = text
  if (bang >= 0) {
    const size = text.slice(bang + 1)
    if (!/^\d+[kmgt]?$/i.test(size)) return { ...base, error: `size limit "!${size}" must be digits with an optional k, m, g or t` }
    base.size_limit = size.toLowerCase()
    uri = text.slice(0, bang)
  }
  base.uri = uri
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri)
  if (!scheme) return { ...base, error: `"${uri}" is not a URI (expected mailto:address)` }
  base.scheme = scheme[1]!.toLowerCase()
  if (base.scheme !== 'mailto') return { ...base, valid: true }
  const address = decodeURIComponent(uri.slice(scheme[0].length).split('?')[0]!)
  const at = address.lastIndexOf('@')
  if (at <= 0 || at === address.length - 1 || /\s/.test(address)) return { ...base, error: `"${address}" is not an email address` }
  return { ...base, address, domain: address.slice(at + 1).toLowerCase().replace(/\.$/, ''), valid: true }
}

function uriList(value: string): ReportUri[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return parseReportUri(s)
      } catch {
        return { uri: s, scheme: null, address: null, domain: null, size_limit: null, valid: false, error: `"${s}" has bad percent-encoding` }
      }
    })
}

export function parseDmarc(record: string): ParsedDmarc {
  const list: TagList = parseTagList(record)
  const problems: DmarcProblem[] = []
  const explicit: ParsedDmarc['explicit'] = {}
  for (const segment of list.malformed) problems.push({ tag: segment, kind: 'syntax', message: `"${segment}" is not tag=value` })
  for (const key of list.duplicates) problems.push({ tag: key, kind: 'duplicate', message: `tag "${key}" appears more than once; receivers may reject the record or use either value` })
  const first = list.tags[0]
  if (!first || first.key !== 'v') problems.push({ tag: 'v', kind: 'version', message: 'the record must start with v=DMARC1' })
  else if (first.value !== 'DMARC1') problems.push({ tag: 'v', kind: 'version', message: `v=${first.value}: the version is "DMARC1", in capitals` })

  const invalid = (tag: string, value: string, expected: string) =>
    problems.push({ tag, kind: 'invalid_value', message: `${tag}=${value} is not valid; expected ${expected}` })

  const seen = new Set<string>()
  for (const tag of list.tags) {
    if (seen.has(tag.key)) continue
    seen.add(tag.key)
    const value = tag.value
    const lower = value.toLowerCase()
    switch (tag.key) {
      case 'v':
        break
      case 'p':
      case 'sp':
      case 'np':
        if (DISPOSITIONS.has(lower)) explicit[tag.key] = lower
        else invalid(tag.key, value, 'none, quarantine or reject')
        break
      case 'pct':
        if (/^\d{1,3}$/.test(value) && Number(value) <= 100) explicit.pct = Number(value)
        else invalid('pct', value, 'a whole number from 0 to 100')
        break
      case 'adkim':
      case 'aspf':
        if (lower === 'r' || lower === 's') explicit[tag.key] = lower
        else invalid(tag.key, value, 'r (relaxed) or s (strict)')
        break
      case 'fo': {
        const options = lower.split(':').map((s) => s.trim())
        if (options.every((o) => ['0', '1', 'd', 's'].includes(o))) explicit.fo = options
        else invalid('fo', value, 'a colon-separated list of 0, 1, d, s')
        break
      }
      case 'rf': {
        const formats = lower.split(':').map((s) => s.trim())
        if (formats.every((f) => f === 'afrf' || f === 'iodef')) explicit.rf = formats
        else invalid('rf', value, 'afrf')
        break
      }
      case 'ri':
        if (/^\d{1,10}$/.test(value) && Number(value) <= 0xffffffff) explicit.ri = Number(value)
        else invalid('ri', value, 'a number of seconds')
        break
      case 'rua':
      case 'ruf':
        explicit[tag.key] = uriList(value)
        if ((explicit[tag.key] as ReportUri[]).length === 0) invalid(tag.key, value, 'one or more mailto: URIs')
        break
      case 'psd':
        if (['y', 'n', 'u'].includes(lower)) explicit.psd = lower
        else invalid('psd', value, 'y, n or u')
        break
      case 't':
        if (lower === 'y' || lower === 'n') explicit.t = lower
        else invalid('t', value, 'y or n')
        break
      default:
        problems.push({ tag: tag.name, kind: 'unknown_tag', message: `unknown tag "${tag.name}" (receivers ignore it)` })
    }
  }
  if (!('p' in explicit) && !problems.some((p) => p.tag === 'p')) {
    problems.push({ tag: 'p', kind: 'missing_p', message: 'the required p= tag is missing' })
  }
  const p = (explicit.p as Disposition | undefined) ?? null
  const sp = (explicit.sp as Disposition | undefined) ?? p
  const policy: DmarcPolicy = {
    p,
    sp,
    np: (explicit.np as Disposition | undefined) ?? sp,
    pct: (explicit.pct as number | undefined) ?? 100,
    adkim: (explicit.adkim as 'r' | 's' | undefined) ?? 'r',
    aspf: (explicit.aspf as 'r' | 's' | undefined) ?? 'r',
    fo: (explicit.fo as string[] | undefined) ?? ['0'],
    rf: (explicit.rf as string[] | undefined) ?? ['afrf'],
    ri: (explicit.ri as number | undefined) ?? 86_400,
    rua: (explicit.rua as ReportUri[] | undefined) ?? [],
    ruf: (explicit.ruf as ReportUri[] | undefined) ?? [],
    psd: (explicit.psd as 'y' | 'n' | 'u' | undefined) ?? 'u',
    t: (explicit.t as 'y' | 'n' | undefined) ?? 'n',
  }
  // RFC 7489 §6.6.3: no valid p= but a valid rua= means "p=none".
  if (policy.p === null && policy.rua.some((u) => u.valid)) {
    policy.p = 'none'
    policy.sp ??= 'none'
    policy.np ??= policy.sp
  }
  return {
    tags: list.tags.map((t) => ({ name: t.name, value: t.value, known: (KNOWN_TAGS as readonly string[]).includes(t.key) })),
    explicit,
    policy,
    problems,
  }
}
