import { isIP } from 'node:net'

// Name server values as registries write them, with the glue some of them add:
//   ns1.google.com                      ns1.google.com.
//   ns1.x.de 194.246.96.1 2a02:568::53  (DENIC, IANA: addresses after the name)
//   ns1.register.be (86.39.202.67)      (DNS Belgium: one line per address)
//   NS1.GOOGLE.COM                      (Verisign: upper case)
// Anything that is not a host name is dropped: the text is the server's.

export interface WhoisNameserver {
  /** Lowercased, no trailing dot. */
  name: string
  ipv4: string[]
  ipv6: string[]
}

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/

export function hostName(text: string): string | null {
  const name = text.trim().toLowerCase().replace(/\.$/, '')
  if (name.length < 3 || name.length > 253 || !name.includes('.')) return null
  return name.split('.').every((label) => LABEL.test(label)) ? name : null
}

/** One value: the host and any addresses on the same line. */
export function parseNameserver(value: string): WhoisNameserver | null {
  const parts = value
    .replace(/[(),;[\]]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
  const name = parts[0] === undefined ? null : hostName(parts[0])
  if (name === null) return null
  const ipv4: string[] = []
  const ipv6: string[] = []
  for (const p of parts.slice(1, 9)) {
    const family = isIP(p)
    if (family === 4) ipv4.push(p)
    else if (family === 6) ipv6.push(p.toLowerCase())
  }
  return { name, ipv4, ipv6 }
}

/** Name servers in order, one per name, their addresses merged (DNS Belgium lists one line per address). */
export function mergeNameservers(list: readonly WhoisNameserver[]): WhoisNameserver[] {
  const byName = new Map<string, WhoisNameserver>()
  for (const ns of list) {
    const known = byName.get(ns.name)
    if (!known) byName.set(ns.name, { name: ns.name, ipv4: [...ns.ipv4], ipv6: [...ns.ipv6] })
    else {
      for (const a of ns.ipv4) if (!known.ipv4.includes(a)) known.ipv4.push(a)
      for (const a of ns.ipv6) if (!known.ipv6.includes(a)) known.ipv6.push(a)
    }
  }
  return [...byName.values()].slice(0, 64)
}
