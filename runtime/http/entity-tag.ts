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

/** Digests of data objects by identity: cached data goes out again unchanged, and is hashed once. */
const digests = new WeakMap<object, string>()

function digest(text: string): string {
  // sha1 for speed, not secrecy: 128 of its bits make an accidental match impossible in practice.
  return hash('sha1', text, 'base64url').slice(0, 22)
}

function dataDigest(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) {
    const json = JSON.stringify(data) as string | undefined
    return json === undefined ? undefined : digest(json)
  }
  let known = digests.get(data)
  if (known === undefined) {
    known = digest(JSON.stringify(data))
    digests.set(data, known)
  }
  return known
}

/** The weak tag of an enveloped answer; undefined when the data cannot be read as JSON (then no tag at all). */
export function weakTag(data: unknown, tier: string, target: string): string | undefined {
  let of: string | undefined
  try {
    of = dataDigest(data)
  } catch {
    return undefined
  }
  return of === undefined ? undefined : `W/"${digest(`${of}\n${tier}\n${target}`)}"`
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
