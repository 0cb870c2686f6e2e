import type { PlainReader } from './plain-reader.ts'
import { linesUntil } from './plain-reader.ts'

// The plaintext part of each STARTTLS protocol, up to the server's go-ahead.
// Each throws a StarttlsRefused (the server speaks the protocol but will not
// start TLS) or a plain Error (it does not speak it as expected).

export class StarttlsRefused extends Error {}

export interface DialogueContext {
  reader: PlainReader
  signal: AbortSignal
  /** The name the client introduces itself with or asks for (EHLO, XMPP `to`). */
  domain: string
}

const text = (b: Buffer) => b.toString('latin1').trim()
const quote = (b: Buffer) => JSON.stringify(text(b).slice(0, 120))

// SMTP (RFC 5321, RFC 3207): 220 greeting, EHLO, STARTTLS in the extensions, 220.
const smtpReply = linesUntil((line) => /^\d{3}(?: |$)/.test(line))
async function smtp(c: DialogueContext): Promise<void> {
  const greeting = await c.reader.read(smtpReply, c.signal)
  if (!greeting.toString('latin1').startsWith('220')) throw new Error(`the SMTP greeting was ${quote(greeting)}`)
  c.reader.write('EHLO infralens.invalid\r\n')
  const ehlo = await c.reader.read(smtpReply, c.signal)
  if (!ehlo.toString('latin1').startsWith('250')) throw new Error(`EHLO was answered ${quote(ehlo)}`)
  if (!/^250[- ]STARTTLS\b/im.test(ehlo.toString('latin1'))) throw new StarttlsRefused('the SMTP server does not offer STARTTLS in its EHLO reply')
  c.reader.write('STARTTLS\r\n')
  const go = await c.reader.read(smtpReply, c.signal)
  if (!go.toString('latin1').startsWith('220')) throw new StarttlsRefused(`STARTTLS was answered ${quote(go)}`)
}

// IMAP (RFC 9051 §6.2.1, RFC 2595): untagged greeting, tagged STARTTLS, OK.
async function imap(c: DialogueContext): Promise<void> {
  const greeting = await c.reader.read(linesUntil(() => true), c.signal)
  if (!/^\* (OK|PREAUTH)\b/i.test(greeting.toString('latin1'))) throw new Error(`the IMAP greeting was ${quote(greeting)}`)
  c.reader.write('a1 STARTTLS\r\n')
  const done = await c.reader.read(linesUntil((line) => /^a1 /i.test(line)), c.signal)
  const status = /^a1 (\w+)/im.exec(done.toString('latin1'))?.[1]?.toUpperCase()
  if (status !== 'OK') throw new StarttlsRefused(`STARTTLS was answered ${quote(done)}`)
}

// POP3 (RFC 2595 §4): +OK greeting, STLS, +OK.
async function pop3(c: DialogueContext): Promise<void> {
  const greeting = await c.reader.read(linesUntil(() => true), c.signal)
  if (!greeting.toString('latin1').startsWith('+OK')) throw new Error(`the POP3 greeting was ${quote(greeting)}`)
  c.reader.write('STLS\r\n')
  const go = await c.reader.read(linesUntil(() => true), c.signal)
  if (!go.toString('latin1').startsWith('+OK')) throw new StarttlsRefused(`STLS was answered ${quote(go)}`)
}

// FTP (RFC 4217 §4): 220 greeting (multi-line 220-), AUTH TLS, 234.
async function ftp(c: DialogueContext): Promise<void> {
  const greeting = await c.reader.read(smtpReply, c.signal)
  if (!greeting.toString('latin1').startsWith('220')) throw new Error(`the FTP greeting was ${quote(greeting)}`)
  c.reader.write('AUTH TLS\r\n')
  const go = await c.reader.read(smtpReply, c.signal)
  if (!go.toString('latin1').startsWith('234')) throw new StarttlsRefused(`AUTH TLS was answered ${quote(go)}`)
}

// XMPP client-to-server (RFC 6120 §5): our stream header, the server's stream
// features with <starttls/>, <starttls/>, <proceed/>.
const xmlUntil = (pattern: RegExp) => (buffer: Buffer) => {
  const m = pattern.exec(buffer.toString('latin1'))
  return m ? m.index + m[0].length : null
}
async function xmpp(c: DialogueContext): Promise<void> {
  const to = c.domain.replace(/[<>&'"]/g, '')
  c.reader.write(`<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' to='${to}' version='1.0'>`)
  const features = await c.reader.read(xmlUntil(/<\/stream:features>|<stream:features\s*\/>|<\/stream:stream>|<stream:error/), c.signal)
  const said = features.toString('latin1')
  if (!/<stream:stream\b/.test(said)) throw new Error(`the server did not open an XMPP stream: ${quote(features)}`)
  if (!/<starttls\b[^>]*urn:ietf:params:xml:ns:xmpp-tls/.test(said)) throw new StarttlsRefused('the XMPP server does not offer <starttls/> in its stream features')
  c.reader.write("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")
  const go = await c.reader.read(xmlUntil(/<proceed\b[^>]*\/>|<proceed\b[^>]*>\s*<\/proceed>|<failure\b[^>]*(\/>|<\/failure>)/), c.signal)
  if (!/<proceed\b/.test(go.toString('latin1'))) throw new StarttlsRefused(`<starttls/> was answered ${quote(go)}`)
}

// LDAP (RFC 4511 §4.14): an ExtendedRequest for 1.3.6.1.4.1.1466.20037, and an
// ExtendedResponse whose resultCode is success (0).
const LDAP_STARTTLS = Buffer.from('301d02010177188016312e332e362e312e342e312e313436362e3230303337', 'hex')
function berLength(buffer: Buffer, at: number): { length: number; header: number } | null {
  const first = buffer[at]
  if (first === undefined) return null
  if (first < 0x80) return { length: first, header: 1 }
  const n = first & 0x7f
  if (n === 0 || n > 3 || buffer.length < at + 1 + n) return n === 0 || n > 3 ? { length: -1, header: 1 } : null
  return { length: buffer.readUIntBE(at + 1, n), header: 1 + n }
}
const berMessage = (buffer: Buffer): number | null => {
  if (buffer.length < 2) return null
  if (buffer[0] !== 0x30) return buffer.length // not LDAP: hand it over to be judged
  const len = berLength(buffer, 1)
  if (!len) return null
  if (len.length < 0) return buffer.length
  const total = 1 + len.header + len.length
  return buffer.length >= total ? total : null
}
async function ldap(c: DialogueContext): Promise<void> {
  c.reader.write(LDAP_STARTTLS)
  const reply = await c.reader.read(berMessage, c.signal)
  // SEQUENCE { messageID 1, [APPLICATION 24] ExtendedResponse { resultCode ENUMERATED, ... } }
  if (reply[0] !== 0x30) throw new Error('the server did not answer in LDAP (BER)')
  const outer = berLength(reply, 1)!
  let at = 1 + outer.header
  if (reply[at] !== 0x02) throw new Error('the LDAP reply has no message id')
  at += 2 + reply[at + 1]!
  if (reply[at] !== 0x78) throw new Error(`the LDAP reply is not an ExtendedResponse (tag 0x${(reply[at] ?? 0).toString(16)})`)
  const inner = berLength(reply, at + 1)
  if (!inner) throw new Error('the LDAP ExtendedResponse is cut short')
  at += 1 + inner.header
  if (reply[at] !== 0x0a || reply[at + 1] !== 1) throw new Error('the LDAP ExtendedResponse has no resultCode')
  const code = reply[at + 2]
  if (code !== 0) throw new StarttlsRefused(`the LDAP StartTLS request was answered with resultCode ${code}`)
}

// PostgreSQL (protocol 3, "SSLRequest"): 8 bytes, then a single 'S' (go ahead) or 'N'.
async function postgres(c: DialogueContext): Promise<void> {
  c.reader.write(Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]))
  const answer = await c.reader.read((b) => (b.length >= 1 ? 1 : null), c.signal)
  if (answer[0] === 0x4e) throw new StarttlsRefused('the PostgreSQL server answered the SSLRequest with N: no TLS')
  if (answer[0] !== 0x53) throw new Error(`the server did not answer the PostgreSQL SSLRequest (first byte 0x${answer[0]!.toString(16)})`)
}

// MySQL (client/server protocol): the server's Initial Handshake (protocol 10)
// says CLIENT_SSL in its capabilities; the client answers with a 32-byte
// SSLRequest packet (sequence 1), and TLS starts at once.
const CLIENT_LONG_PASSWORD = 0x1
const CLIENT_PROTOCOL_41 = 0x200
const CLIENT_SSL = 0x800
const CLIENT_SECURE_CONNECTION = 0x8000
const mysqlPacket = (b: Buffer) => (b.length >= 4 && b.length >= 4 + b.readUIntLE(0, 3) ? 4 + b.readUIntLE(0, 3) : null)
async function mysql(c: DialogueContext): Promise<void> {
  const packet = await c.reader.read(mysqlPacket, c.signal)
  const body = packet.subarray(4)
  if (body[0] === 0xff) throw new StarttlsRefused(`the MySQL server refused the connection: ${JSON.stringify(body.subarray(3).toString('latin1').slice(0, 120))}`)
  if (body[0] !== 10) throw new Error(`the server did not send a MySQL protocol 10 handshake (first byte 0x${(body[0] ?? 0).toString(16)})`)
  const versionEnd = body.indexOf(0, 1)
  // version NUL, thread id (4), auth data part 1 (8), filler (1), capability flags lower 2 bytes.
  const capsAt = versionEnd + 1 + 4 + 8 + 1
  if (versionEnd < 0 || body.length < capsAt + 2) throw new Error('the MySQL handshake packet is cut short')
  const caps = body.readUInt16LE(capsAt)
  if (!(caps & CLIENT_SSL)) throw new StarttlsRefused('the MySQL server does not offer TLS (no CLIENT_SSL in its capabilities)')
  const request = Buffer.alloc(4 + 32)
  request.writeUIntLE(32, 0, 3)
  request[3] = 1
  request.writeUInt32LE(CLIENT_LONG_PASSWORD | CLIENT_PROTOCOL_41 | CLIENT_SSL | CLIENT_SECURE_CONNECTION, 4)
  request.writeUInt32LE(16 * 1024 * 1024, 8)
  request[12] = 33 // utf8_general_ci
  c.reader.write(request)
}

export const DIALOGUES = { smtp, imap, pop3, ftp, xmpp, ldap, postgres, mysql } as const

