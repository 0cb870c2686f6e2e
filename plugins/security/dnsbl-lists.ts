// What the answers of well-known DNS blocklists mean. A listing is an A record in
// 127.0.0.0/8 whose value says why; some lists answer a bitmask in the last
// octet. Some answers are not listings at all but the list refusing to answer:
// Spamhaus's 127.255.255.x (a public or abusive resolver asked, or a typo in the
// zone), URIBL's and SURBL's 127.0.0.1 (the resolver is blocked). Those are
// errors of the check, never "listed". Sources: each operator's documentation
// (Spamhaus "Available zones", uribl.com/about.shtml, surbl.org/lists).

export type Decoded = { kind: 'listed'; meaning: string } | { kind: 'refused'; meaning: string }

export interface ListProfile {
  name: string
  /** The list has IPv6 entries (nibble-reversed queries). */
  ipv6: boolean
  decode(code: string): Decoded
}

const octets = (code: string) => code.split('.').map(Number)

const SPAMHAUS_ERRORS: Record<string, string> = {
  '127.255.255.252': 'query refused: typing error in the DNSBL name',
  '127.255.255.254': 'query refused: asked through a public/open resolver (use your own resolver or Spamhaus DQS)',
  '127.255.255.255': 'query refused: excessive number of queries',
}

function table(name: string, ipv6: boolean, codes: Record<string, string>, fallback: string): ListProfile {
  return {
    name,
    ipv6,
    decode(code) {
      if (codes[code] !== undefined) return { kind: 'listed', meaning: codes[code] }
      return { kind: 'listed', meaning: `${fallback} (return code ${code})` }
    },
  }
}

const SPAMHAUS_IP: Record<string, string> = {
  '127.0.0.2': 'SBL: Spamhaus Block List (direct spam source or spam operation)',
  '127.0.0.3': 'SBL CSS: snowshoe / low-reputation sending (automated)',
  '127.0.0.4': 'XBL: exploited or infected host (CBL data)',
  '127.0.0.5': 'XBL: exploited host',
  '127.0.0.6': 'XBL: exploited host',
  '127.0.0.7': 'XBL: exploited host',
  '127.0.0.9': 'SBL DROP: hijacked or criminal netblock (DROP/EDROP)',
  '127.0.0.10': 'PBL: end-user range that should not send mail directly (ISP maintained)',
  '127.0.0.11': 'PBL: end-user range that should not send mail directly (Spamhaus maintained)',
  '127.0.0.20': 'AuthBL: IP seen in SMTP AUTH attacks',
  '127.0.0.30': 'BCL: botnet controller',
}

const SPAMHAUS_DBL: Record<string, string> = {
  '127.0.1.2': 'DBL: low-reputation (spam) domain',
  '127.0.1.4': 'DBL: phishing domain',
  '127.0.1.5': 'DBL: malware domain',
  '127.0.1.6': 'DBL: botnet command-and-control domain',
  '127.0.1.102': 'DBL: abused legitimate domain (spam)',
  '127.0.1.103': 'DBL: abused legitimate redirector',
  '127.0.1.104': 'DBL: abused legitimate domain (phishing)',
  '127.0.1.105': 'DBL: abused legitimate domain (malware)',
  '127.0.1.106': 'DBL: abused legitimate domain (botnet C&C)',
}

function bitmask(name: string, bits: ReadonlyArray<[bit: number, meaning: string]>, refusedAt: string): ListProfile {
  return {
    name,
    ipv6: false,
    decode(code) {
      if (code === refusedAt) return { kind: 'refused', meaning: 'query refused: the resolver asking is blocked by the list (too many queries, or a public resolver)' }
      const last = octets(code)[3] ?? 0
      const hits = bits.filter(([bit]) => (last & bit) !== 0).map(([, meaning]) => meaning)
      return { kind: 'listed', meaning: hits.length ? hits.join('; ') : `listed (return code ${code})` }
    },
  }
}

const PROFILES: Record<string, ListProfile> = {
  'zen.spamhaus.org': table('Spamhaus ZEN', true, SPAMHAUS_IP, 'Spamhaus ZEN listing'),
  'sbl.spamhaus.org': table('Spamhaus SBL', true, SPAMHAUS_IP, 'Spamhaus SBL listing'),
  'xbl.spamhaus.org': table('Spamhaus XBL', true, SPAMHAUS_IP, 'Spamhaus XBL listing'),
  'pbl.spamhaus.org': table('Spamhaus PBL', true, SPAMHAUS_IP, 'Spamhaus PBL listing'),
  'sbl-xbl.spamhaus.org': table('Spamhaus SBL-XBL', true, SPAMHAUS_IP, 'Spamhaus SBL/XBL listing'),
  'dbl.spamhaus.org': {
    ...table('Spamhaus DBL', false, SPAMHAUS_DBL, 'Spamhaus DBL listing'),
    decode(code) {
      if (code === '127.0.1.255') return { kind: 'refused', meaning: 'query refused: IP queries are not allowed on the DBL' }
      return SPAMHAUS_DBL[code] ? { kind: 'listed', meaning: SPAMHAUS_DBL[code] } : { kind: 'listed', meaning: `Spamhaus DBL listing (return code ${code})` }
    },
  },
  'bl.spamcop.net': table('SpamCop', false, { '127.0.0.2': 'SpamCop: reported as a spam source' }, 'SpamCop listing'),
  'b.barracudacentral.org': table('Barracuda BRBL', false, { '127.0.0.2': 'Barracuda Reputation Block List: poor sending reputation' }, 'Barracuda listing'),
  'psbl.surriel.com': table('PSBL', false, { '127.0.0.2': 'Passive Spam Block List: sent mail to spam traps' }, 'PSBL listing'),
  'bl.mailspike.net': table('Mailspike BL', false, { '127.0.0.2': 'Mailspike: poor sending reputation' }, 'Mailspike listing'),
  'dnsbl-1.uceprotect.net': table('UCEPROTECT level 1', false, { '127.0.0.2': 'UCEPROTECT level 1: this address sent spam to traps' }, 'UCEPROTECT listing'),
  'multi.uribl.com': bitmask(
    'URIBL multi',
    [
      [2, 'URIBL black: domain seen in spam'],
      [4, 'URIBL grey: domain of bulk / unsolicited senders'],
      [8, 'URIBL red: domain seen in unsolicited mail, newly monitored'],
    ],
    '127.0.0.1',
  ),
  'multi.surbl.org': bitmask(
    'SURBL multi',
    [
      [4, 'SURBL DM: disposable email domain'],
      [8, 'SURBL PH: phishing site'],
      [16, 'SURBL MW: malware site'],
      [32, 'SURBL CT: click-tracking domain'],
      [64, 'SURBL ABUSE: spam and abuse site'],
      [128, 'SURBL CR: cracked (compromised) site'],
    ],
    '127.0.0.1',
  ),
}

/** How to read a zone's answers; a zone we do not know gets the generic reading (any 127.x is a listing). */
export function profileOf(zone: string): ListProfile {
  return PROFILES[zone] ?? table(zone, true, {}, 'listed')
}

/**
 * Any answer: a listing, a refusal, or not a DNSBL answer at all (outside
 * 127/8: a resolver that rewrites NXDOMAIN to an advertising server, say).
 */
export function decodeAnswer(zone: string, code: string): Decoded | { kind: 'invalid'; meaning: string } {
  const o = octets(code)
  if (o[0] !== 127) return { kind: 'invalid', meaning: `${code} is not a DNSBL answer (outside 127.0.0.0/8; the resolver may rewrite NXDOMAIN answers)` }
  if (SPAMHAUS_ERRORS[code] !== undefined) return { kind: 'refused', meaning: SPAMHAUS_ERRORS[code] }
  if (o[1] === 255 && o[2] === 255) return { kind: 'refused', meaning: `query refused by the list (return code ${code})` }
  return profileOf(zone).decode(code)
}
