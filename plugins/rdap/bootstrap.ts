import type { IpAddress, IpVersion } from '../../runtime/ip/ip-types.ts'
import { BITS } from '../../runtime/ip/ip-types.ts'
import { parseCidr } from '../../runtime/ip/parse-cidr.ts'
import { arr, obj, str, strings } from '../../runtime/raw-json.ts'

// IANA RDAP bootstrap registries (RFC 9224): which RDAP server answers for a TLD,
// an IP block or an ASN range. Each file is {publication, services: [[entries],
// [base URLs]]}. Matching: domains by the longest label suffix ("co.uk" before
// "uk"), IPs by the longest covering prefix, ASNs by the (narrowest) range that
// holds the number.

export type BootstrapKind = 'dns' | 'ipv4' | 'ipv6' | 'asn'

export const BOOTSTRAP_KINDS: readonly BootstrapKind[] = ['dns', 'ipv4', 'ipv6', 'asn']

export interface BootstrapMatch {
  /** The bootstrap entry that matched: "com", "2001:4800::/23", "13312-15359". */
  entry: string
  /** The base URL chosen (https preferred), always ending in "/". */
  base_url: string
  urls: string[]
}

interface Service {
  entry: string
  urls: string[]
}

interface IpService extends Service {
  version: IpVersion
  network: bigint
  prefixLength: number
}

interface AsnService extends Service {
  lo: number
  hi: number
}

export class BootstrapFormatError extends Error {
  override name = 'BootstrapFormatError'
}

/** The parsed file, with its lookup structure. */
export interface BootstrapTable {
  kind: BootstrapKind
  publication: string | null
  /** How many entries were usable (a sanity check against a truncated file). */
  size: number
  match(key: string | IpAddress | number): BootstrapMatch | null
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`
}

/** RFC 9224 §4: prefer https when a service lists both. Non-http(s) URLs are dropped. */
function usableUrls(value: unknown): string[] {
  const urls = strings(value).filter((u) => /^https?:\/\/[^/\s]+/i.test(u)).map(withSlash)
  return [...urls.filter((u) => /^https:/i.test(u)), ...urls.filter((u) => /^http:/i.test(u))]
}

function services(json: unknown): Array<{ entries: string[]; urls: string[] }> {
  const root = obj(json)
  if (!root || !Array.isArray(root.services)) throw new BootstrapFormatError('not an RDAP bootstrap file (no "services" list)')
  return arr(root.services).flatMap((s) => {
    const pair = arr(s)
    const urls = usableUrls(pair[1])
    return urls.length > 0 ? [{ entries: strings(pair[0]), urls }] : []
  })
}

const toMatch = (s: Service): BootstrapMatch => ({ entry: s.entry, base_url: s.urls[0]!, urls: s.urls })

function dnsTable(list: ReturnType<typeof services>): Pick<BootstrapTable, 'size' | 'match'> {
  const bySuffix = new Map<string, Service>()
  for (const s of list) for (const e of s.entries) {
    const key = e.toLowerCase().replace(/^\.+|\.+$/g, '')
    if (key !== '' && !bySuffix.has(key)) bySuffix.set(key, { entry: key, urls: s.urls })
  }
  return {
    size: bySuffix.size,
    match(key) {
      if (typeof key !== 'string') return null
      const labels = key.toLowerCase().replace(/\.$/, '').split('.')
      for (let i = 0; i < labels.length; i++) {
        const hit = bySuffix.get(labels.slice(i).join('.'))
        if (hit) return toMatch(hit)
      }
      return null
    },
  }
}

function ipTable(list: ReturnType<typeof services>, version: IpVersion): Pick<BootstrapTable, 'size' | 'match'> {
  const entries: IpService[] = []
  for (const s of list) for (const e of s.entries) {
    const parsed = parseCidr(e)
    if (parsed.ok && parsed.value.version === version) {
      entries.push({ entry: e, urls: s.urls, version, network: parsed.value.network, prefixLength: parsed.value.prefixLength })
    }
  }
  // Longest prefix first: the first covering entry is the most specific one.
  entries.sort((a, b) => b.prefixLength - a.prefixLength)
  const bits = BigInt(BITS[version])
  return {
    size: entries.length,
    match(key) {
      if (typeof key !== 'object' || key.version !== version) return null
      const hit = entries.find((e) => key.value >> (bits - BigInt(e.prefixLength)) === e.network >> (bits - BigInt(e.prefixLength)))
      return hit ? toMatch(hit) : null
    },
  }
}

function asnTable(list: ReturnType<typeof services>): Pick<BootstrapTable, 'size' | 'match'> {
  const entries: AsnService[] = []
  for (const s of list) for (const e of s.entries) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(e)
    if (!m) continue
    const lo = Number(m[1])
    const hi = Number(m[2] ?? m[1])
    if (Number.isSafeInteger(lo) && Number.isSafeInteger(hi) && lo <= hi) entries.push({ entry: e.trim(), urls: s.urls, lo, hi })
  }
  // Narrowest range first, should a file ever nest ranges.
  entries.sort((a, b) => a.hi - a.lo - (b.hi - b.lo))
  return {
    size: entries.length,
    match(key) {
      if (typeof key !== 'number') return null
      const hit = entries.find((e) => e.lo <= key && key <= e.hi)
      return hit ? toMatch(hit) : null
    },
  }
}

export function parseBootstrap(kind: BootstrapKind, json: unknown): BootstrapTable {
  const list = services(json)
  const table = kind === 'dns' ? dnsTable(list) : kind === 'asn' ? asnTable(list) : ipTable(list, kind === 'ipv4' ? 4 : 6)
  if (table.size === 0) throw new BootstrapFormatError(`the ${kind} bootstrap file has no usable entries`)
  return { kind, publication: str(obj(json)?.publication), ...table }
}
