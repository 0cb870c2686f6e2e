// WHOIS text to a flat list of entries: (section, key, value). Port 43 (RFC 3912)
// fixes no format, so this reads the layouts registries actually use:
//
//   Key: value                       ICANN gTLD layout, DENIC, CNNIC, CIRA, auDA, .io
//   key:          value              RPSL-like objects (IANA, AFNIC, RIPN), blank-line separated
//   [Key]         value              JPRS
//   Section:                         Nominet, SIDN, DNS Belgium, Red.es: a header, then
//       value / Sub: value             deeper-indented lines that belong to it
//   Section                          NIC.it: a bare word, then indented "Key: value" lines
//     Key: value
//
// Comments (% # ; and JPRS's [ ... ] banner, ">>> ... <<<", "****" boxes) and rules
// ("-----") are skipped. The section of a line is the nearest shallower header
// above it. Keys are never used as object keys: they stay strings in the entries.
//
// Bounded on any input: one pass over at most MAX_LINES lines of at most
// MAX_LINE characters, with regular expressions that cannot backtrack far.

export interface WhoisEntry {
  /** The enclosing section's key, lowercased ("registrar", "relevant dates"); null at top level. */
  section: string | null
  /** Lowercased, spaces collapsed, trailing dots dropped ("domain name"); null for a value line under a section. */
  key: string | null
  value: string
  /** 0-based index of the line, for "first occurrence" rules. */
  line: number
}

const MAX_LINES = 20_000
const MAX_LINE = 2_000

const COMMENT = /^\s*(?:%|#|;|>>>|<<<|\*{3,}|\[ .*\]\s*$|-{3,}\s*$|={3,}\s*$)/
/** "Key: value" / "Key:" — the first colon followed by whitespace or the end of the line. */
const KEY_VALUE = /^([^:\t[\]]{1,80}?)\s*:(?:[ \t]+(.*)|[ \t]*)$/
/** JPRS: "[Domain Name]  GOOGLE.JP", with an optional "a. " item prefix. */
const BRACKETED = /^(?:[a-z]\.\s*)?\[([^\]]{1,80})\]\s*(.*)$/

export function normalizeKey(key: string): string {
  return key.trim().toLowerCase().replace(/\s+/g, ' ').replace(/\.{2,}$|\.$/, '').trim()
}

function indentOf(line: string): number {
  let width = 0
  for (const c of line) {
    if (c === ' ') width += 1
    else if (c === '\t') width += 8 - (width % 8)
    else break
  }
  return width
}

interface Header {
  key: string
  indent: number
}

export function whoisEntries(text: string): WhoisEntry[] {
  const lines = text.split(/\r\n|\r|\n/, MAX_LINES)
  const entries: WhoisEntry[] = []
  const headers: Header[] = []
  lines.forEach((raw, index) => {
    const line = raw.length > MAX_LINE ? raw.slice(0, MAX_LINE) : raw
    if (line.trim() === '' || COMMENT.test(line)) return
    const indent = indentOf(line)
    const body = line.trim()
    // A line at or left of a header's column ends that header's section.
    while (headers.length > 0 && headers[headers.length - 1]!.indent >= indent) headers.pop()
    const section = headers.length > 0 ? headers[headers.length - 1]!.key : null

    const bracketed = BRACKETED.exec(body)
    const kv = bracketed ? null : KEY_VALUE.exec(body)
    const key = bracketed ? normalizeKey(bracketed[1]!) : kv ? normalizeKey(kv[1]!) : null
    const value = (bracketed ? bracketed[2] : kv?.[2])?.trim() ?? ''
    if (key !== null && key !== '') {
      if (value === '') headers.push({ key, indent })
      else entries.push({ section, key, value, line: index })
      // "[Tech-C]" (DENIC) and "[Signing Key]" (JPRS) with nothing after them are
      // headers too; an empty key is still recorded so "present but empty" can be told.
      if (value === '') entries.push({ section, key, value: '', line: index })
      return
    }
    if (section !== null) entries.push({ section, key: null, value: body, line: index })
    else if (/^[A-Za-z][A-Za-z /-]{0,40}$/.test(body)) headers.push({ key: normalizeKey(body), indent }) // NIC.it: "Registrar", "Nameservers"
  })
  return entries
}
