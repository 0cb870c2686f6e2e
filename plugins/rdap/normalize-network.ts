import { formatAddress, formatIp } from '../../runtime/ip/format.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import { rangeToCidrs } from '../../runtime/ip/range-to-cidrs.ts'
import type { CommonFields } from './normalize-common.ts'
import { commonFields, eventDate } from './normalize-common.ts'
import type { RawObject } from '../../runtime/raw-json.ts'
import { arr, int, objects, str } from '../../runtime/raw-json.ts'

// RFC 9083 §5.4 IP network objects. The range comes as start/end addresses; the
// CIDRs from the cidr0 extension when the registry sends it (APNIC, ARIN, RIPE
// since 2020), else computed from the range (RIPE's 130.59.0.0 - 130.59.255.255).

export interface OrgRef {
  handle: string | null
  name: string | null
}

export interface NormalizedNetwork extends CommonFields {
  object_class: 'ip network'
  name: string | null
  type: string | null
  ip_version: 4 | 6 | null
  start_address: string | null
  end_address: string | null
  cidrs: string[]
  cidr_source: 'cidr0' | 'computed' | null
  parent_handle: string | null
  country: string | null
  registered: string | null
  last_changed: string | null
  /** ARIN's arin_originas0 extension: ASNs registered as originating the network. */
  origin_asns: number[]
  organization: OrgRef | null
}

const canonical = (text: string | null): string | null => {
  if (text === null) return null
  const parsed = parseIp(text)
  return parsed.ok ? formatIp(parsed.value) : text
}

function cidr0(value: unknown): string[] {
  return objects(value).flatMap((c) => {
    const prefix = str(c.v4prefix) ?? str(c.v6prefix)
    const length = int(c.length)
    const parsed = prefix === null ? null : parseIp(prefix)
    return parsed?.ok && length !== null ? [`${formatIp(parsed.value)}/${length}`] : []
  })
}

function computedCidrs(start: string | null, end: string | null): string[] {
  if (start === null || end === null) return []
  const lo = parseIp(start)
  const hi = parseIp(end)
  if (!lo.ok || !hi.ok || lo.value.version !== hi.value.version || hi.value.value < lo.value.value) return []
  const version = lo.value.version
  return rangeToCidrs(version, lo.value.value, hi.value.value).map((b) => `${formatAddress(version, b.network)}/${b.prefixLength}`)
}

/**
 * The holder: a top-level registrant entity. RIPE also gives the registrant role
 * to maintainer objects (COLOCLUE-MNT), so an org (jCard kind "org") comes first,
 * then anything that is not a maintainer.
 */
export function organizationOf(entities: CommonFields['entities']): OrgRef | null {
  const registrants = entities.filter((e) => e.parent_handle === null && e.roles.includes('registrant'))
  const org = registrants.find((e) => e.kind === 'org') ?? registrants.find((e) => !/-MNT$/i.test(e.handle ?? '')) ?? registrants[0]
  return org ? { handle: org.handle, name: org.name ?? org.organization } : null
}

export function normalizeNetwork(o: RawObject): NormalizedNetwork {
  const common = commonFields(o)
  const start = canonical(str(o.startAddress))
  const end = canonical(str(o.endAddress))
  const fromExtension = cidr0(o.cidr0_cidrs)
  const computed = fromExtension.length > 0 ? [] : computedCidrs(start, end)
  const version = str(o.ipVersion)
  return {
    object_class: 'ip network',
    name: str(o.name),
    type: str(o.type),
    ip_version: version === 'v4' ? 4 : version === 'v6' ? 6 : start === null ? null : start.includes(':') ? 6 : 4,
    start_address: start,
    end_address: end,
    cidrs: fromExtension.length > 0 ? fromExtension : computed,
    cidr_source: fromExtension.length > 0 ? 'cidr0' : computed.length > 0 ? 'computed' : null,
    parent_handle: str(o.parentHandle),
    country: str(o.country)?.toUpperCase() ?? null,
    ...common,
    registered: eventDate(common.events, 'registration'),
    last_changed: eventDate(common.events, 'last changed'),
    origin_asns: arr(o.arin_originas0_originautnums).flatMap((n) => (int(n) === null ? [] : [int(n)!])),
    organization: organizationOf(common.entities),
  }
}
