import fc from 'fast-check'
import { address, addressWithPort, cidr, hostName, ipSafe, ipv4Safe, ipv6Safe, publicAddressesIn } from './fuzz-addresses.ts'

// The fuzzer's payload classes, independent of any endpoint: prototype keys,
// control characters of every Unicode class, over-long input, odd encodings,
// header names and values, JSON and text bodies, methods. The endpoint-aware
// part (which value goes where) is fuzz-cases.ts; addresses and names are
// fuzz-addresses.ts.

// ---- prototype keys ----------------------------------------------------------------

export const PROTO_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toString',
  'toLocaleString',
  'valueOf',
  'toJSON',
  'then',
  'length',
  'call',
  'apply',
  'bind',
  '__PROTO__',
  'Constructor',
] as const

export const PROTO_PATHS = [
  '__proto__.x',
  '__proto__.polluted',
  '__proto__.__proto__',
  '__proto__.toString',
  'constructor.prototype',
  'constructor.prototype.x',
  'constructor.prototype.polluted',
  'constructor.name',
  'prototype.polluted',
  'a.__proto__.b',
  'data.__proto__.polluted',
  'data.constructor.prototype.polluted',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  'toString.call',
  '__proto__,constructor.prototype.polluted',
] as const

export const protoKey = fc.constantFrom(...PROTO_NAMES, ...PROTO_PATHS)

// ---- characters ----------------------------------------------------------------------------

const char = (code: number) => String.fromCodePoint(code)
const range = (from: number, to: number) => fc.integer({ min: from, max: to }).map(char)

/** One character (or lone surrogate) of a class that breaks naive text handling. */
export const weirdChar = fc.oneof(
  range(0x00, 0x1f), // C0, NUL, TAB, LF, CR, ESC
  fc.constant('\u007F'), // DEL
  range(0x80, 0x9f), // C1 (U+0085 NEL among them)
  fc.constantFrom('\u0085', '\u2028', '\u2029'), // line breaks YAML 1.1 and JS know
  fc.constantFrom('\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'), // bidi
  fc.constantFrom('\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD', '\u180E'), // zero width, BOM, soft hyphen
  fc.constantFrom('\uFFFE', '\uFFFF', '\uFDD0', '\uFDEF', char(0x1fffe), char(0x10ffff)), // noncharacters
  fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uDC00\uD800'), // lone surrogates, reversed pair
  fc.constantFrom(char(0x1f600), char(0x1d400), char(0x10000), char(0x20000), char(0xe0041), '👨‍👩‍👧'), // outside the BMP, tag char, ZWJ sequence
  range(0x0300, 0x036f), // combining marks
  fc.constantFrom('\u20D0', '\uFE0F', '\u0E49', 'a\u0301\u0301\u0301'),
  fc.constantFrom('\uFF0E', '\u3002', '\uFF61', '\uFF0F', '\uFF1A', '\uFF20', '\u2215', '\u2044', '\uFE52'), // full-width and look-alike dots, slashes, colons, at
  fc.constantFrom('"', "'", '<', '>', '&', '\\', '`', '$', '{', '}', '[', ']', '%', '#', '?', '=', ';', ',', '|', '*', '!', ':', '@', '/', '+', ' '),
)

/** Strings mixing those with plain text; some are all weird, some a word with one inside. */
export const weirdString = fc.oneof(
  fc.array(fc.oneof({ weight: 3, arbitrary: weirdChar }, { weight: 1, arbitrary: fc.string({ maxLength: 4 }) }), { minLength: 1, maxLength: 12 }).map((parts) => parts.join('')),
  fc.tuple(fc.constantFrom('example.net', 'valid.tls.test', 'infralens.test', 'abc', '192.0.2.1', 'json', 'true', '5'), fc.nat(12), weirdChar).map(([word, at, c]) => word.slice(0, at) + c + word.slice(at)),
  fc.constantFrom('a'.repeat(1) + '\u0301'.repeat(300), '\u202Eten.elpmaxe', '\uFEFFexample.net', 'example.net\u0000', '\u0000', '\uFFFD', '\r\n', '\n', ' \t ', '%00', '\\u0000', '&#0;', '${7*7}', '{{7*7}}', "' OR 1=1 --", '<script>', ']]>', '<!--', '---', '- a', '? x', '! tag', '&anchor', '*alias', '~', 'null', 'NULL', 'undefined', 'NaN', '-0', '1e309', '0x10', 'true', 'yes', 'no', 'on', 'Off', 'y', '=cmd|', '+1', '-1', '@SUM(1)'),
)

// ---- over-long input --------------------------------------------------------------------

/** Far past every limit: 64/256/1025 (labels, names), 10k+ (parameters), and the 64/128 KiB bounds of the utilities. */
export const overLong = fc.oneof(
  fc.tuple(fc.constantFrom(64, 256, 1025, 4097, 10_001), fc.constantFrom('a', '%', 'é', '😀', '0', '.', '/', '-', ',', '\u0000', 'a.', '%41', '\u0301')).map(([n, c]) => c.repeat(Math.ceil(n / c.length))),
  fc.constantFrom(65_537, 131_073).map((n) => 'A'.repeat(n)),
  fc.constantFrom(20_000).map((n) => 'ab,'.repeat(n / 3)),
)

// ---- odd encodings -------------------------------------------------------------------------

const hex2 = (b: number) => b.toString(16).toUpperCase().padStart(2, '0')

/** UTF-8 bytes; a lone surrogate as its own 3 bytes (CESU-style, invalid UTF-8), not U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

export function looseUtf8(text: string): Uint8Array {
  // Well-formed text (nearly all of it): Node's own encoder.
  if (!LONE_SURROGATE.test(text)) return Buffer.from(text, 'utf8')
  const out: number[] = []
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const next = text.charCodeAt(i + 1)
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out.push(...Buffer.from(text.slice(i, i + 2), 'utf8'))
      i++
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f))
    } else {
      out.push(...Buffer.from(text[i]!, 'utf8'))
    }
  }
  return Uint8Array.from(out)
}

const HEX = Array.from({ length: 256 }, (_, b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
const KEEP = Array.from({ length: 256 }, (_, b) => b < 0x80 && /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)))

const UNRESERVED = /[A-Za-z0-9\-_.~]/

/** encodeURIComponent, with lone surrogates as their (invalid) UTF-8 bytes. */
function component(s: string): string {
  let out = ''
  for (const b of looseUtf8(s)) out += KEEP[b] ? String.fromCharCode(b) : HEX[b]!
  return out
}

/** How one name or value goes into a URL. Each keeps the text recoverable by some decoder, or is meant not to. */
export const ENCODERS = {
  component,
  /** As typed: the URL parser escapes what it must ('#' starts a fragment, '&' splits). */
  raw: (s: string) => s,
  /** Every byte escaped, letters and digits too. */
  everyByte: (s: string) => Array.from(looseUtf8(s), (b) => HEX[b]!).join(''),
  everyByteLower: (s: string) => Array.from(looseUtf8(s), (b) => HEX[b]!.toLowerCase()).join(''),
  mixedCaseHex: (s: string) => Array.from(looseUtf8(s), (b, i) => (i % 2 ? HEX[b]!.toLowerCase() : HEX[b]!)).join(''),
  /** %2541 for A: decoded once it is still %41. */
  double: (s: string) => component(component(s)),
  /** Spaces as '+', as forms send them (URLSearchParams reads '+' as a space; a path does not). */
  plus: (s: string) => component(s).replace(/%20/g, '+'),
  /** ASCII as overlong two-byte UTF-8 (%C0%AE for '.', %C0%AF for '/'): invalid, must not decode to the ASCII. */
  overlong: (s: string) =>
    [...s]
      .map((c) => (c.charCodeAt(0) < 0x80 ? `%${hex2(0xc0 | (c.charCodeAt(0) >> 6))}%${hex2(0x80 | (c.charCodeAt(0) & 0x3f))}` : component(c)))
      .join(''),
  /** Latin-1 bytes (%E9 for é): invalid UTF-8 past ASCII. */
  latin1: (s: string) =>
    [...s]
      .map((c) => (c.charCodeAt(0) <= 0xff ? (UNRESERVED.test(c) ? c : `%${hex2(c.charCodeAt(0))}`) : component(c)))
      .join(''),
  /** %00 before and after. */
  nul: (s: string) => `%00${component(s)}%00`,
  /** Broken escapes around the value. */
  badEscape: (s: string) => `%${component(s)}%Z%G0%`,
  /** IIS's %uXXXX. */
  percentU: (s: string) =>
    [...s]
      .map((c) => `%u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join(''),
} as const satisfies Record<string, (s: string) => string>

export type EncoderName = keyof typeof ENCODERS
export const ENCODER_NAMES = Object.keys(ENCODERS) as EncoderName[]

export const encoderName = fc.oneof(
  { weight: 6, arbitrary: fc.constant<EncoderName>('component') },
  { weight: 4, arbitrary: fc.constantFrom<EncoderName>(...ENCODER_NAMES) },
)

// ---- plain values ------------------------------------------------------------------------

export const numberish = fc.constantFrom('0', '1', '5', '8', '1000', '1001', '10000', '-1', '-0', '01', '1e3', '1e309', '0x10', '1.5', ' 5', '5 ', '+5', '５', '٥', 'Infinity', 'NaN', '', '4294967296', '9007199254740993', '99999999999', '00000000000000000000001')

export const boolish = fc.constantFrom('true', 'false', '1', '0', 'yes', 'no', '', 'TRUE', 'False', 'YES', 'on', 'off', 'maybe', ' true', 'true ', 'tru\u0000e', 'null')

/** Anything a client might put in any value: the payload classes mixed, and safe addresses and names. */
export const anyValue = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
  // Any code point (fc.string's 'binary' unit costs a second per process to set up).
  { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)), maxLength: 16 }) },
  { weight: 4, arbitrary: weirdString },
  { weight: 2, arbitrary: protoKey },
  { weight: 2, arbitrary: numberish },
  { weight: 1, arbitrary: boolish },
  { weight: 2, arbitrary: address },
  { weight: 1, arbitrary: addressWithPort },
  { weight: 2, arbitrary: hostName },
  { weight: 1, arbitrary: cidr },
  { weight: 1, arbitrary: overLong },
)

// ---- headers -----------------------------------------------------------------------------

/** A byte string the fetch API accepts as a header value: TAB, 0x20-0x7E, 0x80-0xFF. */
export const latin1Value = fc.string({ unit: fc.oneof(fc.constant('\t'), fc.integer({ min: 0x20, max: 0x7e }).map(char), fc.integer({ min: 0x80, max: 0xff }).map(char)), maxLength: 60 })

const many = <T>(arb: fc.Arbitrary<T>, sep: string, max: number) => fc.array(arb, { minLength: 2, maxLength: max }).map((a) => a.join(sep))

const safeAddressList = many(fc.oneof(ipSafe, ipv4Safe.map((a) => `${a}:8080`), ipv6Safe.map((a) => `[${a}]:443`), fc.constantFrom('unknown', '_hidden', '', ' ', 'localhost')), ', ', 6)

/** Values per header name: what the service reads (keys, content negotiation, proxies, CORS, conditionals) and odd ones. */
export const HEADER_VALUES: Record<string, fc.Arbitrary<string>> = {
  'x-api-key': fc.constantFrom('', 'il_', `il_${'a'.repeat(40)}`, `il_${'Z'.repeat(43)}`, `il_${'0'.repeat(2000)}`, '__proto__', 'constructor', ' il_abc ', 'Bearer il_abc', 'il_\u00e9', `il_${'a'.repeat(40)}, il_${'b'.repeat(40)}`),
  accept: fc.constantFrom('*/*', 'application/json', 'application/yaml', 'application/xml', 'text/csv', 'text/html', 'application/*;q=0', '*/*;q=0', 'text/csv;q=1, application/json;q=0.5', 'application/json;charset=utf-16', ';;;', 'a/b/c', 'x'.repeat(8000), 'application/json, '.repeat(300)),
  'accept-encoding': fc.constantFrom('gzip', 'br', 'deflate', 'zstd', 'identity', '*', 'gzip, br', 'br;q=0, gzip;q=0', 'br;q=0, gzip;q=0, identity;q=0', '*;q=0', 'identity;q=0', 'GZIP', 'Br', 'br;q=1.5', 'gzip;q=-1', 'gzip;q=0.0001', 'gzip;q=0.0009', 'x-gzip', ',,,', 'br,'.repeat(500), 'gzip;q=1;q=0'),
  'x-forwarded-for': fc.oneof(safeAddressList, address, fc.constantFrom('', 'unknown', '::1,::1,::1', `${'127.0.0.1, '.repeat(2000)}192.0.2.1`, '127.0.0.1\t192.0.2.1', '[::1', '127.0.0.1;192.0.2.1')),
  forwarded: fc.oneof(ipSafe.map((a) => `for=${a};proto=https`), ipv6Safe.map((a) => `for="[${a}]:443"`), fc.constantFrom('for=unknown', 'for=_hidden, for=127.0.0.1', 'for=', ';;', 'for="')),
  'x-real-ip': address,
  'content-type': fc.constantFrom('application/json', 'text/plain', 'text/plain; charset=utf-8', 'application/json; charset=latin1', 'application/json; charset=utf-16le', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'text/csv', '', 'application/json;;;', 'APPLICATION/JSON', 'application/merge-patch+json', '*/*', 'application/octet-stream', 'image/png', 'text/plain; charset=__proto__'),
  origin: fc.oneof(fc.constantFrom('null', 'http://127.0.0.1:8080', 'https://example.net', 'https://example.net:8443', 'http://[::1]', 'file://', 'https://example.net, https://example.test', 'x'.repeat(3000), '*'), hostName.map((h) => `https://${h}`)),
  'if-none-match': fc.constantFrom('*', '"x"', 'W/"x"', 'W/""', '"', 'W/', '*, "a"', '"a", W/"b"', 'W/"x'.repeat(1000), '\u00ff'),
  'if-modified-since': fc.constantFrom('Thu, 01 Jan 1970 00:00:00 GMT', 'yesterday', '', 'Mon, 32 Foo 99999 99:99:99 GMT'),
  range: fc.constantFrom('bytes=0-1', 'bytes=-1', 'bytes=0-0,1-1', 'items=0-5', 'bytes=', 'bytes=99999999999999999999-'),
  cookie: fc.constantFrom('a=b', '__proto__=x', 'constructor=1; prototype=2', '=', ';;;', `s=${'x'.repeat(4000)}`),
  authorization: fc.constantFrom('Bearer il_abc', 'Basic Og==', 'Basic', '', '__proto__'),
  'user-agent': fc.oneof(latin1Value, fc.constantFrom('', 'curl/8', '() { :; }; echo x')),
  'accept-language': fc.constantFrom('en', '*', 'de-CH;q=0.5', 'x'.repeat(500)),
  'x-request-id': fc.constantFrom('abc', '01J00000000000000000000000', '', '__proto__', '\u00ff'.repeat(30)),
  expect: fc.constantFrom('100-continue', 'nonsense'),
  'content-encoding': fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'x'),
  'cache-control': fc.constantFrom('no-cache', 'no-store', 'max-age=0', 'only-if-cached', 'max-age=-1'),
  pragma: fc.constant('no-cache'),
  'access-control-request-method': fc.constantFrom('GET', 'POST', 'DELETE', '__proto__', ''),
  'access-control-request-headers': fc.constantFrom('x-api-key', 'content-type, x-api-key', '*', ''),
  'x-http-method-override': fc.constantFrom('DELETE', 'POST', '__proto__'),
  host: fc.oneof(hostName, addressWithPort, fc.constantFrom('', 'localhost', '[::1]:8080')),
  'x-forwarded-host': hostName,
  'x-forwarded-proto': fc.constantFrom('https', 'http', 'gopher', ''),
  referer: hostName.map((h) => `https://${h}/`),
}

export const KNOWN_HEADERS = Object.keys(HEADER_VALUES)

/** The value arbitrary of a known header (own keys only: "__proto__" is a header name here, not a way into Object.prototype). */
export function knownHeaderValues(name: string): fc.Arbitrary<string> | undefined {
  const key = name.toLowerCase()
  return Object.hasOwn(HEADER_VALUES, key) ? HEADER_VALUES[key] : undefined
}

const token = fc.stringMatching(/^[a-z0-9!#$%&'*+.^_`|~-]{1,24}$/)

/** Header names: the known ones in any case, prototype keys (valid tokens), unknown and long ones. */
export const headerName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...KNOWN_HEADERS) },
  { weight: 1, arbitrary: fc.constantFrom(...KNOWN_HEADERS).map((h) => h.toUpperCase()) },
  { weight: 2, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', '__defineGetter__', 'valueOf') },
  { weight: 2, arbitrary: token },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(1000), 'x-', '-', '~', "x-'", 'x-a.b', 'X-Api-Key', 'X-API-KEY', 'x_api_key') },
)

/** A value for `name`: its own kind mostly, any byte string sometimes. */
export function headerValueFor(name: string): fc.Arbitrary<string> {
  const own = knownHeaderValues(name)
  const odd = fc.oneof(latin1Value, fc.constantFrom('', ' ', 'a'.repeat(8000), '__proto__', '\u00ff\u00fe', '\t'))
  return own ? fc.oneof({ weight: 4, arbitrary: own }, { weight: 1, arbitrary: odd }) : odd
}

export const headerPair = headerName.chain((name) => headerValueFor(name).map((value) => [name, value] as [string, string]))

// ---- methods -----------------------------------------------------------------------------------

/** Methods the fetch API lets a test send (CONNECT, TRACE and TRACK only go on the wire). */
export const otherMethod = fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'get', 'post', 'head', 'options', 'patch', 'PROPFIND', 'QUERY', 'FOO', '__proto__', 'constructor', 'toString', 'M'.repeat(100))

// ---- bodies ------------------------------------------------------------------------------------

/**
 * JSON as text, written by hand so it can carry what JSON.stringify never makes:
 * duplicate keys, keys named like prototype members, escapes of lone
 * surrogates, deep nesting, numbers past double range.
 */
type JsonTree = { k: 'leaf'; text: string } | { k: 'array'; items: JsonTree[] } | { k: 'object'; pairs: Array<[string, JsonTree]> }

const jsonString = (s: string) => JSON.stringify(s)

export const jsonKey = fc.oneof({ weight: 2, arbitrary: fc.string({ maxLength: 10 }) }, { weight: 3, arbitrary: protoKey }, { weight: 2, arbitrary: fc.constantFrom('cidrs', 'entries', 'body', 'data', '') }, { weight: 1, arbitrary: weirdString })

const jsonLeaf = fc.oneof(
  { weight: 3, arbitrary: fc.oneof(cidr, address, fc.string({ maxLength: 20 }), weirdString).map(jsonString) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).map((n) => JSON.stringify(n)) },
  { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null', '1e400', '-1e400', '-0', '0.0000000000000000000000001', '123456789012345678901234567890', '"\\ud800"', '"\\udc00\\ud800"', '"\\u0000"', '"\\uFEFF"', '"\\u2028"') },
)

const jsonTree: fc.Arbitrary<JsonTree> = fc.letrec<{ tree: JsonTree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonLeaf.map((text): JsonTree => ({ k: 'leaf', text })),
    fc.array(tie('tree'), { maxLength: 6 }).map((items): JsonTree => ({ k: 'array', items })),
    fc.array(fc.tuple(jsonKey, tie('tree')), { maxLength: 5 }).map((pairs): JsonTree => ({ k: 'object', pairs })),
  ),
})).tree

export function jsonText(tree: JsonTree): string {
  if (tree.k === 'leaf') return tree.text
  if (tree.k === 'array') return `[${tree.items.map(jsonText).join(',')}]`
  return `{${tree.pairs.map(([k, v]) => `${jsonString(k)}:${jsonText(v)}`).join(',')}}`
}

/** Bodies shaped the way an endpoint taking entries expects: {"cidrs": [...]}, {"entries": [...]}, a bare array. */
const entry = fc.oneof({ weight: 4, arbitrary: cidr }, { weight: 2, arbitrary: address }, { weight: 1, arbitrary: anyValue })
const entryList = fc.oneof({ weight: 6, arbitrary: fc.array(entry, { maxLength: 20 }) }, { weight: 1, arbitrary: fc.constantFrom(1000, 100_001).chain((n) => ipv4Safe.map((a) => Array.from({ length: n }, (_, i) => `${a}/${i % 33}`))) })

export const wellShapedJson = fc.oneof(
  entryList.map((list) => JSON.stringify({ cidrs: list })),
  entryList.map((list) => JSON.stringify({ entries: list })),
  entryList.map((list) => JSON.stringify(list)),
  fc.tuple(entryList, protoKey).map(([list, key]) => `{"cidrs":${JSON.stringify(list)},${jsonString(key)}:{"polluted":true}}`),
  fc.tuple(entryList, entryList).map(([a, b]) => `{"cidrs":${JSON.stringify(a)},"cidrs":${JSON.stringify(b)}}`),
  entryList.map((list) => `{"__proto__":{"cidrs":${JSON.stringify(list)}},"constructor":{"prototype":{"polluted":1}}}`),
)

/** Deep nesting around the 64-level limit and far past it. */
export const deepJson = fc.tuple(fc.constantFrom(2, 63, 64, 65, 100, 10_000, 200_000), fc.constantFrom('[', '{"a":', '{"__proto__":', '[{"cidrs":')).map(([depth, open]) => {
  const close = open === '[' ? ']' : open === '[{"cidrs":' ? '}]' : '}'
  return `${open.repeat(depth)}1${close.repeat(depth)}`
})

export const lineBody = fc
  .record({
    lines: fc.array(fc.oneof({ weight: 4, arbitrary: cidr }, { weight: 1, arbitrary: fc.constantFrom('# comment', '#', '', '   ', '\t192.0.2.0/24\t') }, { weight: 1, arbitrary: weirdString }), { maxLength: 20 }),
    eol: fc.constantFrom('\n', '\r\n', '\r', '\u2028', '\u0085', '\n\n'),
    bom: fc.boolean(),
  })
  .map(({ lines, eol, bom }) => `${bom ? '\uFEFF' : ''}${lines.join(eol)}`)

/** Bytes that are not UTF-8: overlong forms, encoded surrogates, past U+10FFFF, lone continuation bytes, truncated sequences. */
const BAD_UTF8 = [[0xc0, 0xae], [0xc0, 0x80], [0xe0, 0x80, 0xae], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xff], [0xfe], [0x80], [0xbf], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xff, 0xfe], [0xfe, 0xff], [0xef, 0xbb, 0xbf]]

export const invalidUtf8Body = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.tuple(wellShapedJson, fc.array(fc.constantFrom(...BAD_UTF8), { minLength: 1, maxLength: 3 }), fc.nat()).map(([json, bad, at]) => {
    const bytes = Buffer.from(json, 'utf8')
    // inside a string if there is one, else anywhere
    const quote = bytes.indexOf(0x22, at % Math.max(1, bytes.length))
    const i = quote >= 0 ? quote + 1 : at % (bytes.length + 1)
    return new Uint8Array(Buffer.concat([bytes.subarray(0, i), Buffer.from(bad.flat()), bytes.subarray(i)]))
  }),
  fc.tuple(lineBody, fc.constantFrom(...BAD_UTF8)).map(([text, bad]) => new Uint8Array(Buffer.concat([Buffer.from(bad), Buffer.from(text, 'utf8'), Buffer.from(bad)]))),
  lineBody.map((text) => new Uint8Array(Buffer.from(`\uFEFF${text}`, 'utf16le'))),
)

export interface BodyCase {
  bytes: string | Uint8Array
  /** undefined: no Content-Type header at all. */
  contentType: string | undefined
}

/** Any body: JSON of any shape and depth, lines, invalid UTF-8, empty; with a fitting, wrong or missing content type. */
export function bodyCase(maxBytes: number | undefined): fc.Arbitrary<BodyCase> {
  const around = maxBytes === undefined ? fc.constant(1025) : fc.constantFrom(maxBytes - 1, maxBytes, maxBytes + 1)
  const bytes: fc.Arbitrary<string | Uint8Array> = fc.oneof(
    { weight: 5, arbitrary: wellShapedJson },
    { weight: 3, arbitrary: jsonTree.map(jsonText) },
    { weight: 1, arbitrary: deepJson },
    { weight: 3, arbitrary: lineBody },
    { weight: 2, arbitrary: invalidUtf8Body },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '\n', '{', '[', '"', 'null', '{}', '[]', '""', '0', '{"cidrs":null}', '{"cidrs":{}}', '{"cidrs":"192.0.2.0/24"}', 'cidrs=192.0.2.0%2F24', '<cidrs><item>192.0.2.0/24</item></cidrs>') },
    { weight: 1, arbitrary: around.map((n) => `${'192.0.2.0/24\n'.repeat(Math.ceil(n / 13))}`.slice(0, n)) },
  )
  const contentType = fc.oneof(
    { weight: 3, arbitrary: fc.constant<string | undefined>('application/json') },
    { weight: 2, arbitrary: fc.constant<string | undefined>('text/plain') },
    { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
    { weight: 2, arbitrary: HEADER_VALUES['content-type']! },
  )
  return fc.record({ bytes, contentType })
}

// ---- safety ----------------------------------------------------------------------------------

/** The public addresses in any of these strings (there must be none before a request is sent). */
export function publicAddressesInAll(values: Iterable<string>): string[] {
  const out: string[] = []
  for (const v of values) out.push(...publicAddressesIn(v))
  return out
}
