// security.txt as RFC 9116 §4 writes it: lines of `Field-Name: value`, comments
// starting with "#", blank lines allowed, field names case-insensitive. A file may
// be an OpenPGP cleartext-signed message (RFC 4880 §7): the fields are then the
// signed text between the Hash header and the signature, dash-escaping removed.
// The signature itself is not verified (there is no key to verify it with).

export interface TxtField {
  /** As written. */
  name: string
  /** Lowercased, for matching. */
  key: string
  value: string
  line: number
}

export interface TxtProblem {
  line: number | null
  severity: 'error' | 'warning' | 'info'
  message: string
}

export interface ParsedSecurityTxt {
  signed: boolean
  fields: TxtField[]
  problems: TxtProblem[]
}

const BEGIN_SIGNED = '-----BEGIN PGP SIGNED MESSAGE-----'
const BEGIN_SIGNATURE = '-----BEGIN PGP SIGNATURE-----'
const END_SIGNATURE = '-----END PGP SIGNATURE-----'

/** The lines that carry fields, each with its line number in the file. */
function contentLines(lines: string[], problems: TxtProblem[]): { signed: boolean; body: Array<{ text: string; line: number }> } {
  const first = lines.findIndex((l) => l.trim() !== '')
  if (first < 0 || lines[first]!.trim() !== BEGIN_SIGNED) return { signed: false, body: lines.map((text, i) => ({ text, line: i + 1 })) }
  let i = first + 1
  // Armor headers ("Hash: SHA512") up to the first blank line.
  while (i < lines.length && lines[i]!.trim() !== '') i++
  const start = i + 1
  const sigAt = lines.findIndex((l, n) => n >= start && l.trim() === BEGIN_SIGNATURE)
  if (sigAt < 0) {
    problems.push({ line: first + 1, severity: 'error', message: 'Starts as a signed message but has no "-----BEGIN PGP SIGNATURE-----" block' })
    return { signed: true, body: lines.slice(start).map((text, n) => ({ text, line: start + n + 1 })) }
  }
  const endAt = lines.findIndex((l, n) => n > sigAt && l.trim() === END_SIGNATURE)
  if (endAt < 0) problems.push({ line: sigAt + 1, severity: 'error', message: 'The signature block is not closed ("-----END PGP SIGNATURE-----" missing)' })
  else if (lines.slice(endAt + 1).some((l) => l.trim() !== '')) problems.push({ line: endAt + 2, severity: 'warning', message: 'Text after the signature is not covered by it and is ignored' })
  return {
    signed: true,
    body: lines.slice(start, sigAt).map((text, n) => ({ text: text.startsWith('- ') ? text.slice(2) : text, line: start + n + 1 })),
  }
}

export function parseSecurityTxt(text: string): ParsedSecurityTxt {
  const problems: TxtProblem[] = []
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n/)
  const { signed, body } = contentLines(lines, problems)
  const fields: TxtField[] = []
  for (const { text: raw, line } of body) {
    const trimmed = raw.trim()
    if (trimmed === '' || trimmed.startsWith('#')) continue
    const colon = raw.indexOf(':')
    if (colon <= 0) {
      problems.push({ line, severity: 'error', message: `Not a "Field: value" line: "${trimmed.slice(0, 80)}"` })
      continue
    }
    const name = raw.slice(0, colon).trim()
    if (!/^[\x21-\x39\x3b-\x7e]+$/.test(name)) {
      problems.push({ line, severity: 'error', message: `"${name}" is not a valid field name` })
      continue
    }
    if (raw[colon + 1] !== ' ') problems.push({ line, severity: 'warning', message: `${name}: the colon must be followed by one space (RFC 9116 §4)` })
    fields.push({ name, key: name.toLowerCase(), value: raw.slice(colon + 1).trim(), line })
  }
  return { signed, fields, problems }
}
