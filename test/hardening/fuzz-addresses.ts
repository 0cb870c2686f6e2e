import { BlockList, isIPv6 } from 'node:net'
import fc from 'fast-check'

// The fuzzer's addresses and names (issue 18): every IP address it writes is on
// loopback (127.0.0.0/8, ::1) or in a documentation range (192.0.2.0/24,
// 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32), in every spelling it uses —
// octal, hex, decimal, short forms, full-width digits and dots, zone ids,
// brackets, embedded IPv4 — and under every way a parser might read that
// spelling (an octal "0177" read as decimal is 177, which is public: such
// spellings are never made). Names end in reserved TLDs (.test, .invalid,
// .example, .localhost) or are names of the loopback world, whose zones the
// fuzzer serves with every public address replaced (fuzz-zones.ts).
//
// publicAddressesIn() is the check behind that promise: every request the
// fuzzer builds is scanned with it (raw, percent-decoded, NFKC-folded) before it
// is sent, and one that names anything else is never sent.

// ---- what is safe ------------------------------------------------------------------

const SAFE = new BlockList()
SAFE.addSubnet('127.0.0.0', 8, 'ipv4')
SAFE.addSubnet('192.0.2.0', 24, 'ipv4')
SAFE.addSubnet('198.51.100.0', 24, 'ipv4')
SAFE.addSubnet('203.0.113.0', 24, 'ipv4')
// BlockList also matches the IPv4-mapped forms (::ffff:127.0.0.1, ::ffff:c000:201) of the above.
SAFE.addAddress('::1', 'ipv6')
SAFE.addSubnet('2001:db8::', 32, 'ipv6')

/** Loopback or documentation: where the fuzzer's addresses live. */
export function isSafeAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '')
  if (isIPv6(bare)) return SAFE.check(bare, 'ipv6')
  const u32 = strictIpv4(bare)
  return u32 !== undefined && SAFE.check(u32ToDotted(u32), 'ipv4')
}

/**
 * What a bare number or number-like token may stand for without being a
 * generated address: 0.0.0.0/8 ("this network": a limit=5 read as a host is
 * 0.0.0.5). Nothing connects there off the box (Linux answers EINVAL, and 0.0.0.0
 * is this host).
 */
const THIS_NETWORK_MAX = 0x00ff_ffff

function strictIpv4(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)
  if (!m) return undefined
  const parts = m.slice(1).map(Number)
  if (parts.some((p) => p > 255)) return undefined
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!
}

export function u32ToDotted(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')
}

export function dottedToU32(text: string): number {
  const n = strictIpv4(text)
  if (n === undefined) throw new Error(`not a dotted quad: ${text}`)
  return n
}

// ---- how a token may be read -----------------------------------------------------------

/** The values one dotted part may have: decimal (leading zeros ignored), octal (leading 0), hex (0x). */
function partValues(part: string): number[] {
  const values = new Set<number>()
  if (/^\d+$/.test(part)) values.add(Number(part))
  if (/^0[0-7]+$/.test(part)) values.add(parseInt(part, 8))
  if (/^0x[0-9a-f]*$/i.test(part)) values.add(part.length === 2 ? 0 : parseInt(part.slice(2), 16))
  return [...values]
}

/**
 * Every IPv4 address a number-and-dots token may be read as: inet_aton's rules
 * (1 to 4 parts, the last filling the remaining bytes; WHATWG URL hosts too) and
 * "each part one byte, missing ones zero", each part in any radix its spelling
 * allows. Values out of range are no address (every parser we know refuses
 * them rather than wrapping).
 */
export function ipv4Readings(token: string): number[] {
  const parts = token.replace(/\.$/, '').split('.')
  if (parts.length > 4 || parts.some((p) => p === '')) return []
  const choices = parts.map(partValues)
  if (choices.some((c) => c.length === 0)) return []
  const out = new Set<number>()
  const walk = (i: number, picked: number[]): void => {
    if (i < choices.length) {
      for (const v of choices[i]!) walk(i + 1, [...picked, v])
      return
    }
    // inet_aton: a.b.c.d / a.b.(16 bits) / a.(24 bits) / (32 bits)
    const last = picked.at(-1)!
    const head = picked.slice(0, -1)
    const lastMax = 2 ** (8 * (5 - picked.length)) - 1
    if (head.every((p) => p <= 255) && last <= lastMax) out.add(head.reduce((acc, p, k) => acc + p * 2 ** (8 * (3 - k)), 0) + last)
    // one byte per part, right-padded (a lone number is only ever the whole address)
    if (picked.length > 1 && picked.every((p) => p <= 255)) out.add(picked.reduce((acc, p, k) => acc + p * 2 ** (8 * (3 - k)), 0))
  }
  walk(0, [])
  return [...out]
}

// A host-like run: letters, digits, dots, hyphens, underscores. A run that is all
// numbers and dots (0x parts too) may be an IPv4 address; one with a letter
// elsewhere is a name (a name whose last label is numeric is no name to any
// resolver, nor an address: WHATWG URL refuses it). Runs of hex digits, colons
// and dots with two colons may be IPv6.
const RUN = /[0-9a-z._-]+/gi
const V4_RUN = /^(?:0x[0-9a-f]*|\d+)(?:\.(?:0x[0-9a-f]*|\d+))*\.?$/i
const V6_RUN = /[0-9a-f:.]+/gi
const IDEOGRAPHIC_DOTS = /[\u3002\uFF0E\uFF61]/g

/** The text as parsers along the way may see it: raw, percent-decoded (twice), NFKC-folded, and both. */
function views(text: string): string[] {
  const out = new Set<string>([text])
  let decoded = text
  for (let i = 0; i < 2; i++) {
    decoded = percentDecodeLoose(decoded)
    out.add(decoded)
  }
  for (const v of [...out]) {
    out.add(v.normalize('NFKC').replace(IDEOGRAPHIC_DOTS, '.'))
    out.add(v.replace(/\+/g, ' '))
  }
  return [...out]
}

/** %XX to the byte, read as UTF-8 where it is and as Latin-1 where it is not; bad escapes stay. */
function percentDecodeLoose(text: string): string {
  if (!text.includes('%')) return text
  const raw = Buffer.from(text, 'utf8')
  const buffer = Buffer.alloc(raw.length)
  let n = 0
  const hex = (b: number) => (b >= 0x30 && b <= 0x39 ? b - 0x30 : b >= 0x41 && b <= 0x46 ? b - 0x37 : b >= 0x61 && b <= 0x66 ? b - 0x57 : -1)
  for (let i = 0; i < raw.length; i++) {
    const hi = raw[i] === 0x25 && i + 2 < raw.length ? hex(raw[i + 1]!) : -1
    const lo = hi >= 0 ? hex(raw[i + 2]!) : -1
    if (lo >= 0) {
      buffer[n++] = hi * 16 + lo
      i += 2
    } else {
      buffer[n++] = raw[i]!
    }
  }
  return decodeBytes(buffer.subarray(0, n))
}

function decodeBytes(buffer: Buffer): string {
  const utf8 = buffer.toString('utf8')
  return utf8.includes('\uFFFD') ? buffer.toString('latin1') : utf8
}

/**
 * Every address in `text`, under any reading, that is neither loopback nor
 * documentation (nor a bare number's 0.x.y.z): what must never reach the service.
 */
export function publicAddressesIn(text: string): string[] {
  const found = new Set<string>()
  const seen = new Set<string>()
  for (const view of views(text)) {
    for (const [token] of view.matchAll(RUN)) {
      if (seen.has(token) || !V4_RUN.test(token)) continue
      seen.add(token)
      for (const hit of ipv4Verdict(token)) found.add(hit)
    }
    if (!view.includes(':')) continue
    for (const [raw] of view.matchAll(V6_RUN)) {
      if (seen.has(raw) || raw.indexOf(':') === raw.lastIndexOf(':')) continue
      seen.add(raw)
      for (const hit of ipv6Verdict(raw)) found.add(hit)
    }
  }
  return [...found]
}

/** Verdicts per token, remembered: the same addresses come back in request after request. */
const verdicts = new Map<string, string[]>()
function remembered(key: string, judge: () => string[]): string[] {
  let v = verdicts.get(key)
  if (v === undefined) {
    if (verdicts.size > 50_000) verdicts.clear()
    v = judge()
    verdicts.set(key, v)
  }
  return v
}

function ipv4Verdict(token: string): string[] {
  return remembered(`4 ${token}`, () =>
    ipv4Readings(token)
      .filter((n) => n > THIS_NETWORK_MAX && !SAFE.check(u32ToDotted(n), 'ipv4'))
      .map((n) => `${token} (${u32ToDotted(n)})`),
  )
}

function ipv6Verdict(raw: string): string[] {
  return remembered(`6 ${raw}`, () => {
    const out: string[] = []
    // "[2001:db8::1]:443", "::1:8443" and a trailing dot of a sentence: try the token and its shorter forms.
    for (const token of new Set([raw, raw.replace(/\.$/, ''), raw.replace(/:\d+$/, '')])) {
      if (!isIPv6(token) || SAFE.check(token, 'ipv6')) continue
      // An IPv4-mapped address is its IPv4 address: a bare number's 0.x.y.z stays harmless there too.
      const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(token)
      if (mapped && parseInt(mapped[1]!, 16) <= 0xff) continue
      out.push(token)
    }
    return out
  })
}

// ---- IPv4 ------------------------------------------------------------------------------

const byte = fc.integer({ min: 0, max: 255 })

export const ipv4Loopback = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('127.0.0.1', '127.0.0.2', '127.255.255.254', '127.0.0.53') },
  { weight: 2, arbitrary: fc.tuple(byte, byte, byte).map(([a, b, c]) => `127.${a}.${b}.${c}`) },
)

export const ipv4Documentation = fc.tuple(fc.constantFrom('192.0.2', '198.51.100', '203.0.113'), byte).map(([net, host]) => `${net}.${host}`)

export const ipv4Safe = fc.oneof(ipv4Loopback, ipv4Documentation)

type Radix = 'dec' | 'oct' | 'hex' | 'HEX' | 'zeros'

function spellPart(value: number, radix: Radix): string {
  switch (radix) {
    case 'dec':
      return String(value)
    case 'oct':
      return `0${value.toString(8)}`
    case 'hex':
      return `0x${value.toString(16)}`
    case 'HEX':
      return `0X${value.toString(16).toUpperCase()}`
    case 'zeros':
      return String(value).padStart(4, '0')
  }
}

const FULLWIDTH_DIGITS = (s: string) => s.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)))

/**
 * A safe IPv4 address spelled oddly: 1 to 4 parts, each part decimal, octal,
 * hex or zero-padded, dots as dots, ideographic/full-width dots or %2e,
 * full-width digits, a trailing dot. Only spellings every reading of which is
 * still safe (0177.0.0.1 is 127.0.0.1 to inet_aton but 177.0.0.1 read as
 * decimal: never made; 0300.0.2.1 is 192.0.2.1 or no address at all: made).
 */
export const ipv4Odd = fc
  .record({
    address: ipv4Safe,
    parts: fc.constantFrom(1, 2, 3, 4, 4, 4),
    radix: fc.array(fc.constantFrom<Radix>('dec', 'oct', 'hex', 'HEX', 'zeros'), { minLength: 4, maxLength: 4 }),
    dot: fc.constantFrom('.', '.', '.', '\u3002', '\uFF0E', '\uFF61', '%2e', '%2E'),
    fullwidth: fc.boolean(),
    trailingDot: fc.boolean(),
  })
  .map(({ address, parts, radix, dot, fullwidth, trailingDot }) => {
    const n = dottedToU32(address)
    const bytes = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
    // The last part carries the remaining bytes.
    const values = [...bytes.slice(0, parts - 1), bytes.slice(parts - 1).reduce((acc, b) => acc * 256 + b, 0)]
    let text = values.map((v, i) => spellPart(v, radix[i]!)).join(dot)
    if (trailingDot) text += dot
    return fullwidth ? FULLWIDTH_DIGITS(text) : text
  })
  .filter((text) => publicAddressesIn(text).length === 0)

// ---- IPv6 ------------------------------------------------------------------------------

const group = fc.integer({ min: 0, max: 0xffff }).map((g) => g.toString(16))

/** Eight groups written out, or with the longest zero run (or any run) as "::". */
function ipv6Text(groups: string[], compress: boolean): string {
  if (!compress) return groups.join(':')
  let best = -1
  let bestLen = 0
  for (let i = 0; i < 8; ) {
    let j = i
    while (j < 8 && /^0+$/.test(groups[j]!)) j++
    if (j - i > bestLen) {
      best = i
      bestLen = j - i
    }
    i = j === i ? i + 1 : j
  }
  if (bestLen < 2) return groups.join(':')
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`
}

export const ipv6Documentation = fc
  .record({
    rest: fc.array(fc.oneof({ weight: 2, arbitrary: fc.constant('0') }, { weight: 3, arbitrary: group }), { minLength: 6, maxLength: 6 }),
    compress: fc.boolean(),
    upper: fc.boolean(),
    pad: fc.boolean(),
  })
  .map(({ rest, compress, upper, pad }) => {
    let groups = ['2001', 'db8', ...rest]
    if (pad) groups = groups.map((g) => g.padStart(4, '0'))
    const text = ipv6Text(groups, compress && !pad)
    return upper ? text.toUpperCase() : text
  })

export const ipv6Loopback = fc.constantFrom('::1', '0:0:0:0:0:0:0:1', '0000:0000:0000:0000:0000:0000:0000:0001', '::0001', '0::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::FFFF:127.0.0.2')

/** IPv6 forms carrying a safe IPv4 address: mapped, and inside 2001:db8::/32. */
export const ipv6EmbeddedIpv4 = fc
  .tuple(fc.constantFrom('::ffff:', '::FFFF:', '2001:db8::', '2001:db8:0:0:0:0:', '2001:DB8:1::'), ipv4Safe)
  .map(([prefix, v4]) => `${prefix}${v4}`)

export const ipv6Safe = fc.oneof(ipv6Loopback, ipv6Documentation, ipv6EmbeddedIpv4)

/** A zone id, as typed and as it must be percent-encoded inside a URL's brackets. */
export const zoneId = fc.constantFrom('lo', 'eth0', '1', 'en0', '%', '', 'lo%00', 'a'.repeat(300), 'l\u00F6', '../x')

export const ipv6Odd = fc
  .oneof(
  ipv6Safe,
  fc.tuple(ipv6Safe, zoneId, fc.constantFrom('%', '%25')).map(([a, z, sep]) => `${a}${sep}${z}`),
  ipv6Safe.map((a) => `[${a}]`),
  fc.tuple(ipv6Safe, zoneId).map(([a, z]) => `[${a}%25${z}]`),
  ipv6Safe.map((a) => `[${a}`),
  ipv6Safe.map((a) => `${a}]`),
  ipv6Safe.map((a) => `[[${a}]]`),
  )
  .filter((text) => publicAddressesIn(text).length === 0)

// ---- any address ---------------------------------------------------------------------

export const port = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('8443', '8080', '443', '80') },
  { weight: 2, arbitrary: fc.constantFrom('0', '1', '65535', '65536', '99999', '-1', '', '08443', '0x20fb', '8443 ', '4294967297', '+443', '1e3') },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 65535 }).map(String) },
)

export const ipSafe = fc.oneof({ weight: 3, arbitrary: ipv4Safe }, { weight: 2, arbitrary: ipv6Safe })

/** Addresses in every spelling the fuzzer uses, each one safe under every reading. */
export const address = fc.oneof({ weight: 4, arbitrary: ipSafe }, { weight: 2, arbitrary: ipv4Odd }, { weight: 2, arbitrary: ipv6Odd }).filter((text) => publicAddressesIn(text).length === 0)

/** Only spellings no reading of which is public (an unbracketed "::1:8443" is the address ::1:8443 too). */
const safeOnly = (text: string) => publicAddressesIn(text).length === 0

/** address:port, [v6]:port, and the forms people paste. */
export const addressWithPort = fc
  .oneof(
    fc.tuple(ipv4Safe, port).map(([a, p]) => `${a}:${p}`),
    fc.tuple(ipv6Safe, port).map(([a, p]) => `[${a}]:${p}`),
    fc.tuple(ipv6Safe, port).map(([a, p]) => `${a}:${p}`),
    fc.tuple(ipv4Odd, port).map(([a, p]) => `${a}:${p}`),
  )
  .filter(safeOnly)

/** A CIDR block (or something that tries to be one) around a safe address. */
export const cidr = fc.oneof(
  fc.tuple(ipv4Safe, fc.oneof(fc.integer({ min: 0, max: 32 }), fc.constantFrom(-1, 33, 64, 255, 4294967296))).map(([a, p]) => `${a}/${p}`),
  fc.tuple(ipv6Safe, fc.oneof(fc.integer({ min: 0, max: 128 }), fc.constantFrom(-1, 129, 256, 999))).map(([a, p]) => `${a}/${p}`),
  fc.tuple(ipv4Odd, fc.integer({ min: 0, max: 32 })).map(([a, p]) => `${a}/${p}`),
  fc.tuple(ipv4Safe, fc.constantFrom('/', '/ 24', '/24/24', '/0x18', '/024', '/+24', '/24.0', '%2f24', '/٢٤')).map(([a, s]) => `${a}${s}`),
).filter(safeOnly)

// ---- names --------------------------------------------------------------------------------

/**
 * Names of the loopback world (test/support/loopback-internet.ts) the fuzzer may
 * send: in its world every address record is loopback or documentation
 * (fuzz-zones.ts), so even example.com and google.com lead nowhere else.
 */
export const WORLD_NAMES = [
  'example.net',
  'www.example.net',
  'infralens.test',
  'www.infralens.test',
  'web.infralens.test',
  'host.infralens.test',
  'mx1.infralens.test',
  'only-v6.infralens.test',
  'liar.infralens.test',
  '_dmarc.infralens.test',
  'valid.tls.test',
  'example.com',
  'www.example.com',
  'google.com',
  'smtp.google.com',
  '20c.com',
  'dns.google',
  'dbltest.com',
  'test.uribl.com',
  '2.0.0.127.zen.spamhaus.org',
] as const

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,14}[a-z0-9])?$/)
export const reservedTld = fc.constantFrom('test', 'invalid', 'example', 'localhost', 'TEST', 'test.', 'example.test', 'tls.test')

/**
 * Names of every LDH shape a resolver accepts (1-8 labels of up to 63 characters,
 * either case, hyphens inside) under .test (RFC 2606): no such name exists, whatever
 * a parser does with it. For parsers' property tests (fc.domain() would draw real TLDs).
 */
export const ldhTestName = fc
  .array(fc.stringMatching(/^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/), { minLength: 1, maxLength: 8 })
  .map((labels) => `${labels.join('.')}.test`)
  .filter((name) => name.length <= 253)

/** A name under a reserved TLD: answered NXDOMAIN (or nothing) in the fuzzer's world. */
export const reservedName = fc.tuple(fc.array(label, { minLength: 1, maxLength: 4 }), reservedTld).map(([labels, tld]) => `${labels.join('.')}.${tld}`)

/** Unicode names, punycode (good and broken), odd dots, and IDNA edge cases, all under reserved TLDs or world names. */
export const oddName = fc.oneof(
  fc.constantFrom(
    'bücher.test',
    'BÜCHER.TEST',
    'xn--bcher-kva.test',
    'xn--.test',
    'xn--a.test',
    'xn--zz-.invalid',
    'xn--ls8h.example',
    '💩.test',
    '例え.テスト',
    'xn--r8jz45g.xn--zckzah',
    'ﬁ.test',
    'ß.test',
    'straße.example',
    'ǅ.test',
    'a\u200Db.test',
    'a\u00ADb.test',
    'Ⅷ.test',
    'example\u3002net',
    'example\uFF0Enet',
    'example\uFF61net',
    'infralens\uFF0Etest',
    'ＥＸＡＭＰＬＥ．ＮＥＴ',
    'example.net.',
    'example.net..',
    '.example.net',
    'EXAMPLE.NET',
    'ExAmPlE.nEt',
    'example%2enet',
    'example%252enet',
    'localhost',
    'localhost.',
    'LOCALHOST',
    'a.localhost',
    '*.infralens.test',
    '_srv._tcp.infralens.test',
    '-lead.test',
    'trail-.test',
    'a..b.test',
    'a b.test',
    'a\tb.test',
    'a\u0000b.test',
    'under_score.test',
    'xn--n3h.test',
    'a.b.c.d.e.f.g.h.i.j.test',
  ),
  fc.constantFrom(...WORLD_NAMES),
)

/** Names far past the limits: 63/64-character labels, 253/254/255-character names, 10k. */
export const longName = fc.oneof(
  fc.constantFrom(63, 64, 100).map((n) => `${'a'.repeat(n)}.test`),
  fc.constantFrom(253, 254, 255, 256, 1000).map((n) => `${'a.'.repeat(Math.ceil((n - 5) / 2))}test`.slice(-n)),
  fc.constantFrom(10_001, 20_000).map((n) => `${'x'.repeat(n - 5)}.test`),
  fc.constantFrom(128, 2000).map((n) => `${'a.'.repeat(n)}invalid`),
)

export const hostName = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...WORLD_NAMES) }, { weight: 3, arbitrary: reservedName }, { weight: 3, arbitrary: oddName }, { weight: 1, arbitrary: longName })

/** host, host:port, an address or [v6]:port: what the tls and web endpoints take. */
export const host = fc
  .oneof({ weight: 3, arbitrary: hostName }, { weight: 2, arbitrary: fc.tuple(hostName, port).map(([h, p]) => `${h}:${p}`) }, { weight: 2, arbitrary: address }, { weight: 2, arbitrary: addressWithPort })
  .filter(safeOnly)

/** URLs around safe hosts: schemes, userinfo tricks, ports, paths, backslashes, fragments. */
export const url = fc
  .record({
    scheme: fc.constantFrom('http://', 'https://', 'HTTPS://', 'ftp://', 'file://', 'javascript:', 'data:text/html,', '//', 'http:/', 'http:\\\\', 'gopher://', 'ws://', ''),
    userinfo: fc.constantFrom('', '', 'user@', 'user:pass@', 'example.com@', '127.0.0.1@', '@', '%40@'),
    host,
    path: fc.constantFrom('', '/', '/robots.txt', '/.well-known/security.txt', '/../../etc/passwd', '/%2e%2e/', '\\..\\', '/a?b=c', '/#frag', '?x=1', '#@example.com', '/%00', '/\u0000', '/ü', '/a'.repeat(500)),
  })
  .map(({ scheme, userinfo, host: h, path }) => `${scheme}${userinfo}${h}${path}`)
  .filter(safeOnly)
