// What kind of answer a WHOIS text is, before any field is read: a record, "no
// such domain", or a refusal (rate limit, access not granted). Port 43 has no
// status codes, so registries say it in words; these are the major registries'
// documented "not found" and refusal texts (their layouts are in
// test/fixtures/whois-synthetic).

export type AnswerKind = 'record' | 'not_found' | 'refused'

const NOT_FOUND: readonly RegExp[] = [
  /^no match\b/i, // Verisign, PIR, Identity Digital
  /^not found\b/i,
  /^no entries found/i,
  /^no data found/i,
  /^no object found/i,
  /^domain not found/i,
  /^%?\s*no matching record/i,
  /^status:\s*(free|available)$/i, // DENIC, DNS Belgium, SWITCH
  /^no found$/i,
  /the queried object does not exist/i, // CNNIC
  /there is no information available on the domain consulted/i, // Red.es
  /this query returned 0 objects/i, // IANA, RIPE-like servers
  /^domain name not known/i,
  /\bis available for (registration|purchase)\b/i,
  /^no such domain\b/i,
]

const REFUSED: readonly RegExp[] = [
  /query rate limit exceeded/i,
  /\blimit exceeded\b/i,
  /too many (requests|queries|connections)/i,
  /\bthrottled\b/i,
  /access (will only be enabled|denied|is not allowed)/i,
  /not authori[sz]ed to (access|query)/i,
  /your (ip|connection) (address )?(has been|is) (blocked|banned)/i,
]

/** `hasRecord`: the text carried a domain name or registration fields (a record says nothing of rate limits in its disclaimer). */
export function answerKind(text: string, hasRecord: boolean): AnswerKind {
  if (hasRecord) return 'record'
  // Line by line, trimmed and cut short: the patterns then run in time linear in
  // the text (a /^\s*.../m pattern over a long run of blanks would not).
  const lines = text.split(/\r\n|\r|\n/, 2000).map((line) => line.trim().slice(0, 300))
  if (lines.some((line) => NOT_FOUND.some((re) => re.test(line)))) return 'not_found'
  if (lines.some((line) => REFUSED.some((re) => re.test(line)))) return 'refused'
  return 'record'
}
