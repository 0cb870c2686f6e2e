// The "tag=value; tag=value" syntax DKIM defined (RFC 6376 §3.2) and DMARC,
// MTA-STS, TLS-RPT and BIMI records borrowed. Parsing keeps every tag in order with
// its problems, so each record's own rules (first tag, required tags, duplicates)
// can be checked and reported rather than silently applied.

export interface Tag {
  /** As written (case kept); compare with `key`. */
  name: string
  key: string
  value: string
}

export interface TagList {
  tags: Tag[]
  /** Segments that are not tag=value (e.g. "p reject"), in order. */
  malformed: string[]
  /** Tag keys seen more than once. */
  duplicates: string[]
}

const TAG_NAME = /^[A-Za-z][A-Za-z0-9_]*$/

export function parseTagList(text: string): TagList {
  const tags: Tag[] = []
  const malformed: string[] = []
  const seen = new Set<string>()
  const duplicates = new Set<string>()
  // A trailing ";" is allowed; empty segments between ";;" are tolerated (RFC 6376 tag-list has none, receivers skip them).
  for (const raw of text.split(';')) {
    const segment = raw.trim()
    if (segment === '') continue
    const eq = segment.indexOf('=')
    const name = eq < 0 ? '' : segment.slice(0, eq).trim()
    if (eq < 0 || !TAG_NAME.test(name)) {
      malformed.push(segment)
      continue
    }
    const key = name.toLowerCase()
    if (seen.has(key)) duplicates.add(key)
    seen.add(key)
    tags.push({ name, key, value: segment.slice(eq + 1).trim() })
  }
  return { tags, malformed, duplicates: [...duplicates] }
}

/** The first value of a tag (receivers use the first of duplicates), or undefined. */
export function tagValue(list: TagList, key: string): string | undefined {
  return list.tags.find((t) => t.key === key)?.value
}
