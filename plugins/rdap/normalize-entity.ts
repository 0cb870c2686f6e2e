import type { CommonFields } from './normalize-common.ts'
import { commonFields, eventDate, flattenEntities } from './normalize-common.ts'
import type { RdapEntity } from './normalize-common.ts'
import type { NameserverInfo } from './normalize-domain.ts'
import { normalizeNameserver } from './normalize-domain.ts'
import type { RawObject } from '../../runtime/raw-json.ts'
import { int, objects, str } from '../../runtime/raw-json.ts'

// RFC 9083 §5.1 entity and §5.2 nameserver objects, fetched on their own (an
// org's handle, a name server's record at the registry).

export interface NormalizedEntity extends Omit<CommonFields, 'entities'> {
  object_class: 'entity'
  /** The entity itself, as it would appear inside another object. */
  contact: RdapEntity
  /** Entities nested in it (its contacts). */
  entities: RdapEntity[]
  registered: string | null
  last_changed: string | null
  autnums: Array<{ handle: string | null; name: string | null; start_autnum: number | null; end_autnum: number | null }>
  networks: Array<{ handle: string | null; name: string | null; start_address: string | null; end_address: string | null }>
}

export function normalizeEntity(o: RawObject): NormalizedEntity {
  const common = commonFields(o)
  const [self] = flattenEntities([{ ...o, entities: [] }])
  return {
    object_class: 'entity',
    ...common,
    contact: self!,
    registered: eventDate(common.events, 'registration'),
    last_changed: eventDate(common.events, 'last changed'),
    autnums: objects(o.autnums).map((a) => ({ handle: str(a.handle), name: str(a.name), start_autnum: int(a.startAutnum), end_autnum: int(a.endAutnum) })),
    networks: objects(o.networks).map((n) => ({ handle: str(n.handle), name: str(n.name), start_address: str(n.startAddress), end_address: str(n.endAddress) })),
  }
}

export interface NormalizedNameserver extends Omit<CommonFields, 'abuse_contact'>, NameserverInfo {
  object_class: 'nameserver'
}

export function normalizeNameserverObject(o: RawObject): NormalizedNameserver {
  const { abuse_contact: _abuse, ...common } = commonFields(o)
  const ns = normalizeNameserver(o) ?? { name: '', unicode_name: null, handle: str(o.handle), ipv4: [], ipv6: [] }
  return { object_class: 'nameserver', ...common, ...ns }
}
