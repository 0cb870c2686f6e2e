import { hash } from 'node:crypto'

// Entity tags (RFC 9110 §8.8.3) and If-None-Match (§13.1.2).
//
// Enveloped answers get a weak tag over what they say about the resource — the
// data, the request target (path and query: every representation control,
// format, fields, sort, limit, pretty... is in it) and the caller's tier (the body
// names it) — and not over request_id, timestamp, meta.cache or meta.stale, which
// describe this one delivery and differ on every response. A tag over the whole
// body would never match twice. Weak, because two answers with one tag are
// equivalent, not byte-identical (and a gzip and an identity answer share it,
// which weak tags may). So a client holding an answer whose data is still what
// the service has gets 304 "your copy is still good", whichever process of the
// deployment answers: the tag depends on content only.
//
// Envelope-less documents (the OpenAPI document, the docs page and bundle) are
// the same bytes for every caller: they get a strong tag over those bytes, one
// per content coding (static-document.ts).

/**
 * Per data object (by identity: cached data goes out again unchanged), its digest
 * and the tags already made from it, by tier and then by target: a cache hit costs
 * two map lookups with strings it already has (no key text made and hashed per
 * request), not a hash.
 */
interface Known {
  digest: string
  tags: Map<string, Map<string, string>>
  count: number
}
const known = new WeakMap<object, Known>()
/** Tags kept per data object: its targets (format, fields, pages...) times tiers. */
const MAX_TAGS = 64

function digest(text: string): string {
  // sha1 for speed, not secrecy: 128 of its bits make an accidental match impossible in practice.
  return hash('sha1', text, 'base64url').slice(0, 22)
}

const tagOf = (dataDigest: string, key: string): string => `W/"${digest(`${dataDigest}\n${key}`)}"`

/** The weak tag of an enveloped answer; undefined when the data cannot be read as JSON (then no tag at all). */
export function weakTag(data: unknown, tier: string, target: string): string | undefined {
  try {
    if (typeof data !== 'object' || data === null) {
      const json = JSON.stringify(data) as string | undefined
      return json === undefined ? undefined : tagOf(digest(json), `${tier}\n${target}`)
    }
    let entry = known.get(data)
    if (entry === undefined) {
      entry = { digest: digest(JSON.stringify(data)), tags: new Map(), count: 0 }
      known.set(data, entry)
    }
    let byTarget = entry.tags.get(tier)
    let tag = byTarget?.get(target)
    if (tag === undefined) {
      tag = tagOf(entry.digest, `${tier}\n${target}`)
      if (entry.count < MAX_TAGS) {
        if (byTarget === undefined) entry.tags.set(tier, (byTarget = new Map()))
        byTarget.set(target, tag)
        entry.count++
      }
    }
    return tag
  } catch {
    // BigInt, a cycle: not JSON, so not tagged.
    return undefined
  }
}

/** A strong tag over exact bytes; `suffix` tells apart the content codings of one document. */
export function strongTag(bytes: Uint8Array, suffix = ''): string {
  return `"${hash('sha1', bytes, 'base64url').slice(0, 22)}${suffix}"`
}

/** The opaque part of a tag: what weak comparison compares. */
function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag
}

/**
 * If-None-Match against the tag of the answer about to be sent, by weak comparison
 * (the one If-None-Match uses): `*` matches any answer, a list matches when one of
 * its tags does. Parts that are not quoted tags are ignored.
 */
export function noneMatch(ifNoneMatch: string | null, tag: string): boolean {
  if (ifNoneMatch === null) return false
  if (ifNoneMatch.trim() === '*') return true
  const wanted = opaque(tag)
  for (const match of ifNoneMatch.matchAll(/(?:W\/)?("[^"]*")/g)) if (match[1] === wanted) return true
  return false
}
