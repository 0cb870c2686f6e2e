import type { CommonFields } from './normalize-common.ts'
import { commonFields, eventDate } from './normalize-common.ts'
import type { OrgRef } from './normalize-network.ts'
import { organizationOf } from './normalize-network.ts'
import type { RawObject } from '../../runtime/raw-json.ts'
import { int, str } from '../../runtime/raw-json.ts'

// RFC 9083 §5.5 autnum objects. AFRINIC names the autnum after its org
// ("ORG-WCL1-AFRINIC"); the holder's real name is the registrant's fn.

export interface NormalizedAutnum extends CommonFields {
  object_class: 'autnum'
  name: string | null
  type: string | null
  start_autnum: number | null
  end_autnum: number | null
  country: string | null
  registered: string | null
  last_changed: string | null
  organization: OrgRef | null
}

export function normalizeAutnum(o: RawObject): NormalizedAutnum {
  const common = commonFields(o)
  return {
    object_class: 'autnum',
    name: str(o.name),
    type: str(o.type),
    start_autnum: int(o.startAutnum),
    end_autnum: int(o.endAutnum),
    country: str(o.country)?.toUpperCase() ?? null,
    ...common,
    registered: eventDate(common.events, 'registration'),
    last_changed: eventDate(common.events, 'last changed'),
    organization: organizationOf(common.entities),
  }
}
