// The bytes of a WHOIS answer as text. RFC 3912 names no character set: most
// servers send UTF-8, some older ones Latin-1 (umlauts in DENIC's and Red.es's
// older answers). Valid UTF-8 is read as UTF-8, anything else as Latin-1, so no
// byte is lost or turned into an error. Control characters other than tab and
// line ends (a server can send binary) become U+FFFD, and a byte-order mark goes:
// the text is shown to people and goes out in JSON, YAML, XML and CSV.

const utf8 = new TextDecoder('utf-8', { fatal: true })
const latin1 = new TextDecoder('latin1')

export function whoisText(bytes: Uint8Array): string {
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    text = latin1.decode(bytes)
  }
  return text.replace(/^\uFEFF/, '').replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '\uFFFD')
}
