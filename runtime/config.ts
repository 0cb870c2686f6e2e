import { availableParallelism } from 'node:os'
import ipaddr from 'ipaddr.js'
import { z } from 'zod'
import { SETTING_PREFIX, unknownSettings } from './setting-names.ts'

// Environment -> typed config, validated once at start. A bad value stops start-up
// with a message naming the variable, never a half-configured server.

const DEFAULT_PROPAGATION_RESOLVERS =
  'cloudflare=1.1.1.1,google=8.8.8.8,quad9=9.9.9.9,opendns=208.67.222.222,adguard=94.140.14.14,controld=76.76.2.0,cleanbrowsing=185.228.168.9,level3=4.2.2.1'

export interface ServerAddress {
  host: string
  port: number
  name?: string
}

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

function parseAddress(text: string, name?: string): ServerAddress {
  const trimmed = text.trim()
  let host = trimmed
  let port = 53
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(trimmed)
  if (bracketed) {
    host = bracketed[1]!
    if (bracketed[2]) port = Number(bracketed[2])
  } else if (trimmed.split(':').length === 2) {
    const [h, p] = trimmed.split(':')
    host = h!
    port = Number(p)
  }
  if (!ipaddr.isValid(host)) throw new Error(`"${text}" is not an IP address (use addr, addr:port or [v6]:port)`)
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`"${text}" has an invalid port`)
  return name === undefined ? { host: ipaddr.parse(host).toString(), port } : { host: ipaddr.parse(host).toString(), port, name }
}

const addressList = z.string().transform((value, ctx) => {
  try {
    return value
      .split(',')
      .filter((s) => s.trim() !== '')
      .map((s) => parseAddress(s))
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message })
    return z.NEVER
  }
})

const namedAddressList = z.string().transform((value, ctx) => {
  try {
    return value
      .split(',')
      .filter((s) => s.trim() !== '')
      .map((entry) => {
        const eq = entry.indexOf('=')
        if (eq <= 0) throw new Error(`"${entry}" must be name=addr[:port]`)
        return parseAddress(entry.slice(eq + 1), entry.slice(0, eq).trim())
      })
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message })
    return z.NEVER
  }
})

const rateLimits = z.string().transform((value, ctx) => {
  const limits: Record<string, number> = {}
  for (const entry of value.split(',').filter((s) => s.trim() !== '')) {
    const [tier, count] = entry.split('=').map((s) => s.trim())
    const n = Number(count)
    if (!tier || !/^[a-z][a-z0-9_-]*$/.test(tier) || !Number.isInteger(n) || n < 1) {
      ctx.addIssue({ code: 'custom', message: `"${entry}" must be tier=requests_per_minute with a positive integer` })
      return z.NEVER
    }
    limits[tier] = n
  }
  if (limits.anonymous === undefined) {
    ctx.addIssue({ code: 'custom', message: 'the anonymous tier needs a limit' })
    return z.NEVER
  }
  return limits
})

/** Requests one POST /api/batch may hold, per tier: at most this many. */
export const MAX_BATCH_ITEMS = 10_000

/** What each tier may put in one batch when INFRALENS_BATCH_LIMITS leaves it out (issue 22: 20 / 100 / 1,000). */
const DEFAULT_BATCH_LIMITS: Readonly<Record<string, number>> = Object.freeze(Object.assign(Object.create(null) as Record<string, number>, { anonymous: 20, free: 100, pro: 1000 }))

const batchLimits = z.string().transform((value, ctx) => {
  const limits = Object.create(null) as Record<string, number>
  for (const entry of value.split(',').filter((s) => s.trim() !== '')) {
    const [tier, count] = entry.split('=').map((s) => s.trim())
    const n = Number(count)
    if (!tier || !/^[a-z][a-z0-9_-]*$/.test(tier) || !Number.isInteger(n) || n < 1 || n > MAX_BATCH_ITEMS) {
      ctx.addIssue({ code: 'custom', message: `"${entry}" must be tier=items with an integer from 1 to ${MAX_BATCH_ITEMS}` })
      return z.NEVER
    }
    limits[tier] = n
  }
  return limits
})

/**
 * The batch size of every tier INFRALENS_RATE_LIMITS has: the operator's
 * INFRALENS_BATCH_LIMITS entry, else the built-in default for that tier name,
 * else anonymous's. Only a tier the operator names in INFRALENS_BATCH_LIMITS must
 * exist in INFRALENS_RATE_LIMITS (a rate-limit setting with only anonymous=...
 * is fine: the defaults' free and pro then simply have no tier to apply to).
 */
function batchSizes(rate: Readonly<Record<string, number>>, given: Readonly<Record<string, number>> | undefined): Record<string, number> | string {
  const stray = given ? Object.keys(given).filter((tier) => !Object.hasOwn(rate, tier)) : []
  if (stray.length > 0) return `tier(s) ${stray.join(', ')} not in INFRALENS_RATE_LIMITS (${Object.keys(rate).join(', ')}); a batch size belongs to a tier that exists`
  const sizes = Object.create(null) as Record<string, number>
  const anonymous = given?.anonymous ?? DEFAULT_BATCH_LIMITS.anonymous!
  for (const tier of Object.keys(rate)) {
    sizes[tier] = (given && Object.hasOwn(given, tier) ? given[tier] : undefined) ?? (Object.hasOwn(DEFAULT_BATCH_LIMITS, tier) ? DEFAULT_BATCH_LIMITS[tier] : undefined) ?? anonymous
  }
  return sizes
}

const cidrList = z.string().transform((value, ctx) => {
  const list: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = []
  for (const entry of value.split(',').filter((s) => s.trim() !== '')) {
    const text = entry.trim()
    try {
      list.push(text.includes('/') ? ipaddr.parseCIDR(text) : [ipaddr.parse(text), ipaddr.parse(text).kind() === 'ipv4' ? 32 : 128])
    } catch {
      ctx.addIssue({ code: 'custom', message: `"${text}" is not an IP address or CIDR` })
      return z.NEVER
    }
  }
  return list
})

const url = z.url({ protocol: /^https?$/ })

/** Where Mozilla publishes the current version of its server-side TLS guidelines as JSON. */
export const DEFAULT_TLS_PROFILES_URL = 'https://ssl-config.mozilla.org/guidelines/latest.json'

// A WHOIS server, host[:port] (port 43 when left out); the host a name or an IP
// literal ([v6]:port for IPv6 with a port). Only IANA's is configured: the servers
// it refers to are always asked on port 43.
const whoisServer = z.string().transform((value, ctx) => {
  const text = value.trim()
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)|([0-9a-fA-F:.]*:[0-9a-fA-F:.]*))(?::(\d{1,5}))?$/.exec(text)
  const host = m?.[1] ?? m?.[2] ?? m?.[3]
  const port = m?.[4] !== undefined && m[3] === undefined ? Number(m[4]) : 43
  const isName = m?.[2] !== undefined && /^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(m[2])
  if (!m || host === undefined || (!isName && !ipaddr.isValid(host)) || port < 1 || port > 65_535) {
    ctx.addIssue({ code: 'custom', message: `"${value}" must be host[:port] (a name or IP address; [v6]:port with a port)` })
    return z.NEVER
  }
  return { host: ipaddr.isValid(host) ? ipaddr.parse(host).toString() : host.toLowerCase(), port }
})

// DNS blocklist zones, comma-separated names; the defaults are free public lists.
const DEFAULT_DNSBL_ZONES = 'zen.spamhaus.org,bl.spamcop.net,b.barracudacentral.org,psbl.surriel.com,bl.mailspike.net,dnsbl-1.uceprotect.net'
const DEFAULT_DOMAIN_BLOCKLIST_ZONES = 'dbl.spamhaus.org,multi.uribl.com,multi.surbl.org'
const zoneList = z.string().transform((value, ctx) => {
  const zones = value.split(',').map((s) => s.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean)
  const bad = zones.find((zone) => !/^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(zone))
  if (bad !== undefined || zones.length === 0) {
    ctx.addIssue({ code: 'custom', message: bad !== undefined ? `"${bad}" is not a DNS zone name` : 'give at least one zone' })
    return z.NEVER
  }
  return [...new Set(zones)]
})

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  INFRALENS_DNS_RESOLVERS: addressList.default(addressList.parse('1.1.1.1,8.8.8.8')),
  INFRALENS_PROPAGATION_RESOLVERS: namedAddressList.default(namedAddressList.parse(DEFAULT_PROPAGATION_RESOLVERS)),
  INFRALENS_DNS_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  INFRALENS_TRUST_ANCHORS: z.string().min(1).optional(),
  INFRALENS_ASN_IPV4_CSV: z.string().min(1).optional(),
  INFRALENS_ASN_IPV6_CSV: z.string().min(1).optional(),
  INFRALENS_COUNTRY_MMDB: z.string().min(1).optional(),
  INFRALENS_RDAP_BOOTSTRAP_URL: url.default('https://data.iana.org/rdap/'),
  INFRALENS_RIPESTAT_URL: url.default('https://stat.ripe.net'),
  INFRALENS_VRP_URL: z.string().min(1).default('https://console.rpki-client.org/vrps.json'),
  INFRALENS_CRTSH_URL: url.default('https://crt.sh'),
  // Mozilla's server-side TLS guidelines (JSON), fetched when first needed; a
  // local file an operator provides wins over the URL (no network at all then).
  INFRALENS_TLS_PROFILES_URL: url.default(DEFAULT_TLS_PROFILES_URL),
  INFRALENS_TLS_PROFILES_FILE: z.string().min(1).optional(),
  INFRALENS_WHOIS_IANA: whoisServer.default({ host: 'whois.iana.org', port: 43 }),
  INFRALENS_DNSBL_ZONES: zoneList.default(zoneList.parse(DEFAULT_DNSBL_ZONES)),
  INFRALENS_DOMAIN_BLOCKLIST_ZONES: zoneList.default(zoneList.parse(DEFAULT_DOMAIN_BLOCKLIST_ZONES)),
  INFRALENS_EXTRA_CA_FILE: z.string().min(1).optional(),
  SSL_CERT_FILE: z.string().min(1).optional(),
  INFRALENS_SMTP_PORT: z.coerce.number().int().min(1).max(65_535).default(25),
  INFRALENS_ALLOW_PRIVATE_TARGETS: booleanFlag.default(false),
  // Freeze the built-in prototypes once listening (runtime/harden.ts): opt-in, since
  // measured it costs ~7-14 % of a small request's CPU (bench/RESULTS.md).
  INFRALENS_FREEZE_INTRINSICS: booleanFlag.default(false),
  INFRALENS_KEYS_FILE: z.string().min(1).optional(),
  INFRALENS_RATE_LIMITS: rateLimits.default(rateLimits.parse('anonymous=60,free=600,pro=6000')),
  INFRALENS_BATCH_LIMITS: batchLimits.optional(),
  INFRALENS_TRUST_PROXY: cidrList.default([]),
  INFRALENS_CACHE_MAX_ENTRIES: z.coerce.number().int().min(0).default(50_000),
  INFRALENS_STALE_IF_ERROR_S: z.coerce.number().int().min(0).max(7 * 86_400).default(3600),
  INFRALENS_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(25_000),
  INFRALENS_BREAKER_THRESHOLD: z.coerce.number().int().min(1).max(1000).default(5),
  INFRALENS_BREAKER_OPEN_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  INFRALENS_UPSTREAM_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(16),
  INFRALENS_DNS_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(64),
  // Processes serving HTTP (runtime/cluster/): one per core by default; 1 is a
  // single process with no primary.
  INFRALENS_WORKERS: z.coerce.number().int().min(1).max(256).optional(),
  // Threads of each process's CPU pool (runtime/cpu/); the default depends on
  // INFRALENS_WORKERS (defaultCpuThreads). 0: no pool, offloaded endpoints run on
  // the event loop.
  INFRALENS_CPU_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  INFRALENS_CPU_QUEUE: z.coerce.number().int().min(1).max(10_000).default(64),
  INFRALENS_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  INFRALENS_REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/, 'letters, digits, : _ - only').default('infralens:'),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
})

/** Every INFRALENS_* setting there is; any other name with the prefix stops start-up. */
export const KNOWN_SETTINGS: readonly string[] = Object.keys(EnvSchema.shape)
  .filter((name) => name.startsWith(SETTING_PREFIX))
  .sort()

export interface Config {
  port: number
  host: string
  dnsResolvers: ServerAddress[]
  propagationResolvers: ServerAddress[]
  dnsTimeoutMs: number
  trustAnchorsFile: string | undefined
  /** The operator's own offline IP data (ip-location-db "-num" CSVs, a MaxMind-format mmdb); unset: the bundled packages. */
  asnIpv4Csv: string | undefined
  asnIpv6Csv: string | undefined
  countryMmdb: string | undefined
  rdapBootstrapUrl: string
  ripestatUrl: string
  vrpUrl: string
  crtshUrl: string
  /** Mozilla's server-side TLS guidelines JSON (the profiles /api/tls/analyze checks compliance with). */
  tlsProfilesUrl: string
  /** A local copy of such a document; when set, used instead of tlsProfilesUrl. */
  tlsProfilesFile: string | undefined
  /** IANA's WHOIS server (INFRALENS_WHOIS_IANA): names each TLD's WHOIS server where the TLD has no RDAP. */
  whoisIana: { host: string; port: number }
  /** DNSBL zones an IP is looked up in (/api/security/blocklist). */
  dnsblZones: readonly string[]
  /** Domain blocklist zones (/api/security/domain-blocklist). */
  domainBlocklistZones: readonly string[]
  extraCaFile: string | undefined
  /** The system root bundle (OpenSSL's SSL_CERT_FILE); unset: the distribution's usual path. */
  systemCaFile: string | undefined
  /** Port of the STARTTLS probe of MX hosts (25 on the internet; another for local MTAs and tests). */
  smtpPort: number
  allowPrivateTargets: boolean
  /** Freeze the built-in prototypes once listening (and in each CPU-pool thread once set up). */
  freezeIntrinsics: boolean
  keysFile: string | undefined
  rateLimits: Readonly<Record<string, number>>
  /**
   * Requests one POST /api/batch may hold, per tier (INFRALENS_BATCH_LIMITS): one
   * for every tier of rateLimits (null-prototype: look tiers up with Object.hasOwn).
   */
  batchLimits: Readonly<Record<string, number>>
  trustProxy: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>
  cacheMaxEntries: number
  /** How long past its TTL a cached answer may stand in for a failing upstream (0: never). */
  staleIfErrorSeconds: number
  /** Deadline of one request's upstream work; past it the answer is a 504. */
  requestTimeoutMs: number
  /** Failures in a row that open an upstream's circuit, and how long it stays open. */
  breakerThreshold: number
  breakerOpenMs: number
  /** Calls in flight per upstream host; more wait their turn. */
  upstreamConcurrency: number
  /** DNS queries in flight per configured resolver (one request may ask dozens at once). */
  dnsConcurrency: number
  /** How long SIGTERM waits for in-flight requests before exiting anyway. */
  shutdownGraceMs: number
  /** Processes that serve HTTP (cluster workers); 1: one process, no cluster. */
  workers: number
  /** Worker threads of each process's CPU pool (descriptors marked offload); 0: none, they run on the event loop. */
  cpuWorkers: number
  /** Offloaded requests that may wait for a worker; past that, 503 with Retry-After. */
  cpuQueue: number
  redisUrl: string | undefined
  /** Namespace of every key this deployment writes to Redis. */
  redisPrefix: string
  logLevel: z.output<typeof EnvSchema>['LOG_LEVEL']
}

/**
 * CPU-pool threads per process when INFRALENS_CPU_WORKERS is unset. A single
 * process leaves one core to its event loop and gives the pool the rest (on 2
 * cores 1 thread kept /api/health's p99 lowest under summarize load; bench/RESULTS.md,
 * "CPU pool"). With one process per core the cores are the event loops': each
 * process gets 1 thread, started only on its first offloaded request, so that a
 * 100k summarize still never holds an event loop.
 */
export function defaultCpuThreads(cores: number, workers: number): number {
  return workers <= 1 ? Math.max(1, cores - 1) : Math.max(1, Math.floor((cores - workers) / workers))
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Reads the environment; throws ConfigError naming every bad variable and every unknown INFRALENS_* one. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  // Empty strings mean "unset", as with `FOO= npm start`: an unknown name set
  // empty changes nothing, so it stops nothing either.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = EnvSchema.safeParse(present)
  const lines = unknownSettings(Object.keys(present), KNOWN_SETTINGS).map((message) => `  ${message}`)
  if (!parsed.success) lines.push(...parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`))
  if (lines.length > 0 || !parsed.success) throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  const e = parsed.data
  const workers = e.INFRALENS_WORKERS ?? availableParallelism()
  const batches = batchSizes(e.INFRALENS_RATE_LIMITS, e.INFRALENS_BATCH_LIMITS)
  if (typeof batches === 'string') throw new ConfigError(`Invalid configuration:\n  INFRALENS_BATCH_LIMITS: ${batches}`)
  return {
    port: e.PORT,
    host: e.HOST,
    dnsResolvers: e.INFRALENS_DNS_RESOLVERS,
    propagationResolvers: e.INFRALENS_PROPAGATION_RESOLVERS,
    dnsTimeoutMs: e.INFRALENS_DNS_TIMEOUT_MS,
    trustAnchorsFile: e.INFRALENS_TRUST_ANCHORS,
    asnIpv4Csv: e.INFRALENS_ASN_IPV4_CSV,
    asnIpv6Csv: e.INFRALENS_ASN_IPV6_CSV,
    countryMmdb: e.INFRALENS_COUNTRY_MMDB,
    rdapBootstrapUrl: e.INFRALENS_RDAP_BOOTSTRAP_URL,
    ripestatUrl: e.INFRALENS_RIPESTAT_URL,
    vrpUrl: e.INFRALENS_VRP_URL,
    crtshUrl: e.INFRALENS_CRTSH_URL,
    tlsProfilesUrl: e.INFRALENS_TLS_PROFILES_URL,
    tlsProfilesFile: e.INFRALENS_TLS_PROFILES_FILE,
    whoisIana: e.INFRALENS_WHOIS_IANA,
    dnsblZones: e.INFRALENS_DNSBL_ZONES,
    domainBlocklistZones: e.INFRALENS_DOMAIN_BLOCKLIST_ZONES,
    extraCaFile: e.INFRALENS_EXTRA_CA_FILE,
    systemCaFile: e.SSL_CERT_FILE,
    smtpPort: e.INFRALENS_SMTP_PORT,
    allowPrivateTargets: e.INFRALENS_ALLOW_PRIVATE_TARGETS,
    freezeIntrinsics: e.INFRALENS_FREEZE_INTRINSICS,
    keysFile: e.INFRALENS_KEYS_FILE,
    rateLimits: e.INFRALENS_RATE_LIMITS,
    batchLimits: batches,
    trustProxy: e.INFRALENS_TRUST_PROXY,
    cacheMaxEntries: e.INFRALENS_CACHE_MAX_ENTRIES,
    requestTimeoutMs: e.INFRALENS_REQUEST_TIMEOUT_MS,
    staleIfErrorSeconds: e.INFRALENS_STALE_IF_ERROR_S,
    shutdownGraceMs: e.INFRALENS_SHUTDOWN_GRACE_MS,
    workers,
    cpuWorkers: e.INFRALENS_CPU_WORKERS ?? defaultCpuThreads(availableParallelism(), workers),
    cpuQueue: e.INFRALENS_CPU_QUEUE,
    breakerThreshold: e.INFRALENS_BREAKER_THRESHOLD,
    breakerOpenMs: e.INFRALENS_BREAKER_OPEN_MS,
    upstreamConcurrency: e.INFRALENS_UPSTREAM_CONCURRENCY,
    dnsConcurrency: e.INFRALENS_DNS_CONCURRENCY,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.INFRALENS_REDIS_PREFIX,
    logLevel: e.LOG_LEVEL,
  }
}
