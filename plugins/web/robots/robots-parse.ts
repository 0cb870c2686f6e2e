// robots.txt as RFC 9309 reads it (§2.1-2.2): lines of `key: value`, comments
// after "#", keys case-insensitive. A group is one or more user-agent lines and
// the allow/disallow rules after them; a user-agent line after rules starts a new
// group. Sitemap lines belong to no group. Anything else is not part of the
// standard: crawl-delay is kept (many crawlers read it), other keys are listed,
// and near-misses of known keys ("dissallow") are called out.

export interface RobotsRule {
  type: 'allow' | 'disallow'
  path: string
  line: number
}

export interface RobotsGroup {
  user_agents: string[]
  rules: RobotsRule[]
  crawl_delay: number | null
  line: number
}

export interface RobotsProblem {
  line: number | null
  severity: 'error' | 'warning' | 'info'
  message: string
}

export interface ParsedRobots {
  groups: RobotsGroup[]
  sitemaps: Array<{ url: string; line: number }>
  other_records: Array<{ name: string; value: string; line: number }>
  problems: RobotsProblem[]
  line_count: number
}

const KNOWN = ['user-agent', 'allow', 'disallow', 'sitemap', 'crawl-delay']
const PRODUCT_TOKEN = /^[a-zA-Z_-]+$/

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = tmp
    }
  }
  return row[b.length]!
}

export function parseRobots(text: string): ParsedRobots {
  const groups: RobotsGroup[] = []
  const sitemaps: ParsedRobots['sitemaps'] = []
  const other: ParsedRobots['other_records'] = []
  const problems: RobotsProblem[] = []
  let current: RobotsGroup | null = null
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)
  lines.forEach((raw, index) => {
    const line = index + 1
    const content = raw.replace(/#.*$/, '').trim()
    if (content === '') return
    const colon = content.indexOf(':')
    if (colon < 0) {
      problems.push({ line, severity: 'error', message: `no ":" — not a "key: value" line ("${content.slice(0, 80)}")` })
      return
    }
    const key = content.slice(0, colon).trim().toLowerCase()
    const value = content.slice(colon + 1).trim()
    switch (key) {
      case 'user-agent': {
        if (!current || current.rules.length > 0 || current.crawl_delay !== null) {
          current = { user_agents: [], rules: [], crawl_delay: null, line }
          groups.push(current)
        }
        if (value === '') {
          problems.push({ line, severity: 'error', message: 'user-agent with no name' })
          return
        }
        if (value !== '*' && !PRODUCT_TOKEN.test(value)) {
          problems.push({ line, severity: 'warning', message: `user-agent "${value}" is not a product token (letters, "_" and "-"); crawlers match their name against it, so a version or URL never matches` })
        }
        current.user_agents.push(value)
        return
      }
      case 'allow':
      case 'disallow': {
        if (!current) {
          problems.push({ line, severity: 'error', message: `${key} before any user-agent line: it belongs to no group and is ignored` })
          return
        }
        if (value !== '' && !value.startsWith('/') && !value.startsWith('*')) {
          problems.push({ line, severity: 'warning', message: `${key} path "${value}" does not start with "/"; it matches no URL path` })
        }
        if (value.includes('$') && value.indexOf('$') !== value.length - 1) {
          problems.push({ line, severity: 'warning', message: `"$" in "${value}" is only special at the end of a pattern` })
        }
        current.rules.push({ type: key, path: value, line })
        return
      }
      case 'sitemap': {
        let ok = false
        try {
          ok = /^https?:$/.test(new URL(value).protocol)
        } catch {
          ok = false
        }
        if (!ok) problems.push({ line, severity: 'error', message: `sitemap "${value}" is not an absolute http(s) URL` })
        else sitemaps.push({ url: value, line })
        return
      }
      case 'crawl-delay': {
        const n = Number(value)
        if (value === '' || !Number.isFinite(n) || n < 0) problems.push({ line, severity: 'warning', message: `crawl-delay "${value}" is not a number of seconds` })
        else if (!current) problems.push({ line, severity: 'warning', message: 'crawl-delay before any user-agent line is ignored' })
        else current.crawl_delay = n
        return
      }
      default: {
        other.push({ name: key, value, line })
        const near = KNOWN.find((k) => distance(key, k) <= 2)
        problems.push(
          near
            ? { line, severity: 'error', message: `unknown key "${key}" — did you mean "${near}"? Crawlers ignore the line` }
            : { line, severity: 'info', message: `"${key}" is not part of RFC 9309; most crawlers ignore it` },
        )
      }
    }
  })
  for (const g of groups) {
    if (g.rules.length === 0) problems.push({ line: g.line, severity: 'info', message: `the group for ${g.user_agents.join(', ') || '(none)'} has no rules: everything is allowed to it` })
  }
  const seen = new Map<string, number>()
  for (const g of groups) for (const ua of g.user_agents) seen.set(ua.toLowerCase(), (seen.get(ua.toLowerCase()) ?? 0) + 1)
  for (const [ua, count] of seen) {
    if (count > 1) problems.push({ line: null, severity: 'info', message: `user-agent ${ua} has ${count} groups; crawlers combine their rules (RFC 9309 §2.2.1)` })
  }
  return { groups, sitemaps, other_records: other, problems, line_count: lines.length }
}
