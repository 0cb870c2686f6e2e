import { whoisEntries } from './entries.ts'
import { hostName } from './nameservers.ts'

// IANA's port-43 answer about a TLD: the registry's WHOIS server. Newer answers
// put it first ("refer: whois.denic.de"), every answer that has one also in the
// TLD object ("whois: whois.denic.de"). A TLD whose registry runs no WHOIS has an
// empty "whois:" (or none); a string IANA does not know is "0 objects".

export interface IanaTld {
  /** The TLD object was there. */
  known: boolean
  /** The registry's WHOIS server (a host name), or null when IANA names none. */
  server: string | null
}

export function parseIanaAnswer(text: string): IanaTld {
  if (/this query returned 0 objects/i.test(text.slice(0, 4096))) return { known: false, server: null }
  const entries = whoisEntries(text)
  const known = entries.some((e) => e.key === 'domain')
  const named = entries.find((e) => e.key === 'refer' && e.value !== '') ?? entries.find((e) => e.key === 'whois' && e.value !== '')
  return { known: known || named !== undefined, server: named ? hostName(named.value) : null }
}
