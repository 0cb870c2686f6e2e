import { parse } from 'tldts'

// What "one target" is for the per-target bound of a batch: the registrable
// domain of a name (a.example.com, b.example.com and example.com are one target:
// one set of authoritative servers, one web operator), or the address itself.
// A batch of 1,000 names under one domain then asks about it a few at a time,
// not 16 at once. URLs (web endpoints take them) count by their host.

export function targetKey(value: string): string {
  const text = value.trim().toLowerCase()
  const parsed = parse(text, { allowPrivateDomains: true })
  if (parsed.isIp) return parsed.hostname ?? text
  return parsed.domain ?? parsed.hostname ?? text
}
