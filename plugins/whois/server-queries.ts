// What to send each registry. Most take the bare (ASCII) name; two answer a
// bare name with less than they have:
// - DENIC answers the plain query with a short record; "-T dn,ace" asks for the
//   domain object with the name in ACE form (as the Debian whois client sends it).
// - JPRS answers in Japanese unless the query ends in "/e" (its own banner says so).
// Keyed by the server host as IANA names it; a Map, since hosts come from data.

const TEMPLATES = new Map<string, (domain: string) => string>([
  ['whois.denic.de', (d) => `-T dn,ace ${d}`],
  ['whois.jprs.jp', (d) => `${d}/e`],
])

export function queryFor(server: string, domain: string): string {
  return TEMPLATES.get(server.toLowerCase())?.(domain) ?? domain
}
