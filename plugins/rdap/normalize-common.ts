import type { Contact } from './jcard.ts'
import { abuseEmailOf, parseJcard, voicePhoneOf } from './jcard.ts'
import type { StatusCode } from './epp-status.ts'
import { describeStatus } from './epp-status.ts'
import type { RawObject } from '../../runtime/raw-json.ts'
import { objects, str, strings, unique } from '../../runtime/raw-json.ts'

// The members every RDAP object class shares (RFC 9083 §4): events, status,
// entities, links, notices/remarks, port43.

export interface RdapEvent {
  action: string
  /** UTC, ISO 8601 without milliseconds; the server's text when it is not a date. */
  date: string
  actor: string | null
}

export interface PublicId {
  type: string
  identifier: string
}

export interface RdapEntity extends Contact {
  handle: string | null
  roles: string[]
  /** Handle of the entity this one was nested in (a registrar's abuse contact). */
  parent_handle: string | null
  public_ids: PublicId[]
  /** IANA Registrar ID from publicIds (registrars of gTLDs have one). */
  iana_id: string | null
  status: StatusCode[]
  events: RdapEvent[]
}

export interface AbuseContact {
  handle: string | null
  name: string | null
  email: string | null
  phone: string | null
  /** false: an entity with the abuse role; true: guessed from an abuse@ mailbox of another contact. */
  inferred: boolean
}

export interface TextBlock {
  title: string | null
  description: string
  links: string[]
}

export function normalizeDate(text: string): string {
  const ms = Date.parse(text)
  return Number.isNaN(ms) ? text : new Date(ms).toISOString().replace('.000Z', 'Z')
}

export function events(value: unknown): RdapEvent[] {
  return objects(value).flatMap((e) => {
    const action = str(e.eventAction)
    const date = str(e.eventDate)
    return action && date ? [{ action: action.toLowerCase(), date: normalizeDate(date), actor: str(e.eventActor) }] : []
  })
}

/** The first event of an action (servers list one of each in practice). */
export function eventDate(list: readonly RdapEvent[], action: string): string | null {
  return list.find((e) => e.action === action)?.date ?? null
}

export function statuses(value: unknown): StatusCode[] {
  return unique(strings(value)).map(describeStatus)
}

export function publicIds(value: unknown): PublicId[] {
  return objects(value).flatMap((p) => {
    const type = str(p.type)
    const identifier = str(p.identifier)
    return type && identifier ? [{ type, identifier }] : []
  })
}

function entity(e: RawObject, parent: string | null): RdapEntity {
  const contact = parseJcard(e.vcardArray)
  const ids = publicIds(e.publicIds)
  return {
    handle: str(e.handle),
    roles: unique(strings(e.roles).map((r) => r.toLowerCase())),
    parent_handle: parent,
    name: contact?.name ?? null,
    organization: contact?.organization ?? null,
    kind: contact?.kind ?? null,
    emails: contact?.emails ?? [],
    phones: contact?.phones ?? [],
    address: contact?.address ?? [],
    url: contact?.url ?? null,
    public_ids: ids,
    iana_id: ids.find((p) => /^iana registrar id$/i.test(p.type))?.identifier ?? null,
    status: statuses(e.status),
    events: events(e.events),
  }
}

/** Every entity, nested ones after their parent (depth-first), each with its parent's handle. */
export function flattenEntities(value: unknown, parent: string | null = null, depth = 0): RdapEntity[] {
  // Entities nest (registrar -> abuse); a loop in hostile JSON cannot occur after
  // JSON.parse, but depth is bounded anyway against absurd nesting.
  if (depth > 4) return []
  return objects(value).flatMap((e) => {
    const own = entity(e, parent)
    return [own, ...flattenEntities(e.entities, own.handle, depth + 1)]
  })
}

/** Raw entities with their raw objects kept, for what jCard parsing alone cannot tell (abuse mailbox params). */
function rawEntities(value: unknown, depth = 0): RawObject[] {
  if (depth > 4) return []
  return objects(value).flatMap((e) => [e, ...rawEntities(e.entities, depth + 1)])
}

const hasRole = (e: RawObject, role: string) => strings(e.roles).some((r) => r.toLowerCase() === role)

/**
 * The abuse contact: the first entity with the abuse role (top level first, then
 * nested ones such as a registrar's), else an abuse@ mailbox of any contact.
 */
export function abuseContact(value: unknown): AbuseContact | null {
  const all = rawEntities(value)
  const top = objects(value)
  const withRole = [...top, ...all.filter((e) => !top.includes(e))].find((e) => hasRole(e, 'abuse') && parseJcard(e.vcardArray))
  if (withRole) {
    const contact = parseJcard(withRole.vcardArray)
    return { handle: str(withRole.handle), name: contact?.name ?? null, email: abuseEmailOf(withRole.vcardArray), phone: voicePhoneOf(contact), inferred: false }
  }
  for (const e of all) {
    const contact = parseJcard(e.vcardArray)
    const email = contact?.emails.find((m) => /^abuse@/i.test(m))
    if (email) return { handle: str(e.handle), name: contact?.name ?? null, email, phone: voicePhoneOf(contact), inferred: true }
  }
  return null
}

export function textBlocks(value: unknown): TextBlock[] {
  return objects(value).map((n) => ({
    title: str(n.title),
    description: strings(n.description).join('\n'),
    links: unique(objects(n.links).flatMap((l) => (str(l.href) ? [str(l.href)!] : []))),
  }))
}

export interface RdapLinkRef {
  rel: string | null
  href: string
  type: string | null
}

export function links(value: unknown): RdapLinkRef[] {
  return objects(value).flatMap((l) => {
    const href = str(l.href)
    return href ? [{ rel: str(l.rel)?.toLowerCase() ?? null, href, type: str(l.type)?.toLowerCase() ?? null }] : []
  })
}

/** The members common to every object class, named as the API names them. */
export function commonFields(o: RawObject) {
  const list = events(o.events)
  return {
    handle: str(o.handle),
    status: statuses(o.status),
    events: list,
    entities: flattenEntities(o.entities),
    abuse_contact: abuseContact(o.entities),
    port43: str(o.port43),
    notices: textBlocks(o.notices),
    remarks: textBlocks(o.remarks),
    links: links(o.links),
    rdap_conformance: strings(o.rdapConformance),
  }
}

export type CommonFields = ReturnType<typeof commonFields>
