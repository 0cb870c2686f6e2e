// Presentation-format RDATA to wire RDATA for the types the test zones use. Written
// independently of the client's dns-packet decoders, so tests cross-check the two.
// Every type also accepts RFC 3597's generic "\# <length> <hex>" form.

import ipaddr from 'ipaddr.js'
import { fromBase32Hex } from '../../runtime/net/dns/dns-base32hex.ts'
import { encodeName } from '../../runtime/net/dns/dns-name.ts'
import { encodeTypeBitmap } from '../../runtime/net/dns/dns-type-bitmap.ts'
import { typeCode, typeName } from '../../runtime/net/dns/dns-types.ts'
import { absoluteName, parseTtl, unescapeText, type ZoneToken } from './zone-text.ts'

function u8(n: number): Buffer {
  return Buffer.from([n])
}
function u16(n: number): Buffer {
  const b = Buffer.alloc(2)
  b.writeUInt16BE(n)
  return b
}
function u32(n: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n >>> 0)
  return b
}

class Fields {
  private index = 0
  constructor(
    private readonly tokens: ZoneToken[],
    private readonly origin: string,
  ) {}

  private next(what: string): ZoneToken {
    const token = this.tokens[this.index++]
    if (!token) throw new Error(`missing ${what}`)
    return token
  }
  int(what: string, max: number): number {
    const text = this.next(what).text
    if (!/^\d+$/.test(text) || Number(text) > max) throw new Error(`bad ${what} "${text}"`)
    return Number(text)
  }
  u8(what: string): Buffer {
    return u8(this.int(what, 0xff))
  }
  u16(what: string): Buffer {
    return u16(this.int(what, 0xffff))
  }
  u32(what: string): Buffer {
    return u32(this.int(what, 0xffffffff))
  }
  ttl(what: string): Buffer {
    const text = this.next(what).text
    const value = parseTtl(text)
    if (value === undefined || value > 0xffffffff) throw new Error(`bad ${what} "${text}"`)
    return u32(value)
  }
  name(what: string): Buffer {
    return encodeName(absoluteName(this.next(what).text, this.origin))
  }
  ipv4(): Buffer {
    const text = this.next('IPv4 address').text
    const octets = text.split('.')
    if (octets.length !== 4 || octets.some((o) => !/^\d{1,3}$/.test(o) || Number(o) > 255)) throw new Error(`bad IPv4 address "${text}"`)
    return Buffer.from(octets.map(Number))
  }
  ipv6(): Buffer {
    const text = this.next('IPv6 address').text
    if (!ipaddr.IPv6.isValid(text)) throw new Error(`bad IPv6 address "${text}"`)
    return Buffer.from(ipaddr.IPv6.parse(text).toByteArray())
  }
  charString(what: string): Buffer {
    const bytes = unescapeText(this.next(what).text)
    if (bytes.length > 255) throw new Error(`${what} longer than 255 bytes`)
    return Buffer.concat([u8(bytes.length), bytes])
  }
  /** One string written without its length: a CAA value or a URI target. */
  rawString(what: string): Buffer {
    return unescapeText(this.next(what).text)
  }
  type(what: string): Buffer {
    const text = this.next(what).text
    const code = typeCode(text)
    if (code === undefined) throw new Error(`unknown type "${text}"`)
    return u16(code)
  }
  /** RRSIG times: YYYYMMDDHHmmSS (UTC) or seconds since the epoch (RFC 4034 §3.2). */
  time(what: string): Buffer {
    const text = this.next(what).text
    const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text)
    if (m) {
      const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number]
      return u32(Date.UTC(y, mo - 1, d, h, mi, s) / 1000)
    }
    if (/^\d{1,10}$/.test(text) && Number(text) <= 0xffffffff) return u32(Number(text))
    throw new Error(`bad ${what} "${text}"`)
  }
  salt(): Buffer {
    const text = this.next('salt').text
    if (text === '-') return u8(0)
    if (!/^([0-9a-f]{2})+$/i.test(text)) throw new Error(`bad salt "${text}"`)
    return Buffer.concat([u8(text.length / 2), Buffer.from(text, 'hex')])
  }
  base32hex(what: string): Buffer {
    const bytes = fromBase32Hex(this.next(what).text)
    return Buffer.concat([u8(bytes.length), bytes])
  }
  rest(): ZoneToken[] {
    const rest = this.tokens.slice(this.index)
    this.index = this.tokens.length
    return rest
  }
  restText(): string {
    return this.rest()
      .map((t) => t.text)
      .join('')
  }
  base64Rest(what: string): Buffer {
    const text = this.restText()
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length === 0) throw new Error(`bad base64 ${what}`)
    return Buffer.from(text, 'base64')
  }
  hexRest(what: string, allowEmpty = false): Buffer {
    const text = this.restText()
    if (!/^([0-9a-f]{2})*$/i.test(text) || (!allowEmpty && text.length === 0)) throw new Error(`bad hex ${what}`)
    return Buffer.from(text, 'hex')
  }
  typeBitmap(): Buffer {
    return encodeTypeBitmap(
      this.rest().map((t) => {
        const code = typeCode(t.text)
        if (code === undefined) throw new Error(`unknown type "${t.text}" in the type bit map`)
        return code
      }),
    )
  }
  done(): void {
    if (this.index < this.tokens.length) throw new Error(`unexpected "${(this.tokens[this.index] as ZoneToken).text}"`)
  }
}

const SVC_KEYS = ['mandatory', 'alpn', 'no-default-alpn', 'port', 'ipv4hint', 'ech', 'ipv6hint', 'dohpath', 'ohttp']

function svcKey(name: string): number {
  const known = SVC_KEYS.indexOf(name)
  if (known >= 0) return known
  const generic = /^key(\d{1,5})$/.exec(name)
  if (generic && Number(generic[1]) <= 0xffff) return Number(generic[1])
  throw new Error(`unknown SvcParamKey "${name}"`)
}

/** Splits a value-list on commas that are not escaped (RFC 9460 Appendix A.1). */
function valueList(text: string): string[] {
  const items: string[] = []
  let current = ''
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') {
      current += text.slice(i, i + 2)
      i++
    } else if (text[i] === ',') {
      items.push(current)
      current = ''
    } else current += text[i]
  }
  items.push(current)
  return items
}

function svcValue(key: number, value: string | undefined): Buffer {
  const need = (): string => {
    if (value === undefined || value === '') throw new Error(`${SVC_KEYS[key] ?? `key${key}`} needs a value`)
    return value
  }
  switch (key) {
    case 0:
      return Buffer.concat(
        valueList(need())
          .map(svcKey)
          .sort((a, b) => a - b)
          .map(u16),
      )
    case 1:
      return Buffer.concat(
        valueList(need()).map((id) => {
          const bytes = unescapeText(id)
          return Buffer.concat([u8(bytes.length), bytes])
        }),
      )
    case 2:
    case 8:
      if (value !== undefined) throw new Error(`${SVC_KEYS[key]} takes no value`)
      return Buffer.alloc(0)
    case 3:
      return u16(Number(need()))
    case 4:
      return Buffer.concat(valueList(need()).map((a) => Buffer.from(ipaddr.IPv4.parse(a).toByteArray())))
    case 5:
      return Buffer.from(need(), 'base64')
    case 6:
      return Buffer.concat(valueList(need()).map((a) => Buffer.from(ipaddr.IPv6.parse(a).toByteArray())))
    default:
      return value === undefined ? Buffer.alloc(0) : unescapeText(value)
  }
}

function svcParams(tokens: ZoneToken[]): Buffer {
  const params = tokens.map((t) => {
    const eq = t.text.indexOf('=')
    const key = svcKey(eq < 0 ? t.text : t.text.slice(0, eq))
    const value = svcValue(key, eq < 0 ? undefined : t.text.slice(eq + 1))
    return { key, value }
  })
  params.sort((a, b) => a.key - b.key)
  for (let i = 1; i < params.length; i++) if ((params[i] as { key: number }).key === (params[i - 1] as { key: number }).key) throw new Error('duplicate SvcParamKey')
  return Buffer.concat(params.map((p) => Buffer.concat([u16(p.key), u16(p.value.length), p.value])))
}

type Encoder = (f: Fields) => Buffer[]

const ENCODERS: Record<string, Encoder> = {
  A: (f) => [f.ipv4()],
  AAAA: (f) => [f.ipv6()],
  NS: (f) => [f.name('name server')],
  CNAME: (f) => [f.name('target')],
  DNAME: (f) => [f.name('target')],
  PTR: (f) => [f.name('target')],
  MX: (f) => [f.u16('preference'), f.name('exchange')],
  TXT: (f) => f.rest().map((t) => new Fields([t], '.').charString('character-string')),
  SOA: (f) => [f.name('mname'), f.name('rname'), f.u32('serial'), f.ttl('refresh'), f.ttl('retry'), f.ttl('expire'), f.ttl('minimum')],
  CAA: (f) => {
    const flags = f.u8('flags')
    const tag = f.charString('tag')
    return [flags, tag, f.rawString('value')]
  },
  SRV: (f) => [f.u16('priority'), f.u16('weight'), f.u16('port'), f.name('target')],
  HINFO: (f) => [f.charString('cpu'), f.charString('os')],
  NAPTR: (f) => [f.u16('order'), f.u16('preference'), f.charString('flags'), f.charString('services'), f.charString('regexp'), f.name('replacement')],
  DNSKEY: (f) => [f.u16('flags'), f.u8('protocol'), f.u8('algorithm'), f.base64Rest('key')],
  DS: (f) => [f.u16('key tag'), f.u8('algorithm'), f.u8('digest type'), f.hexRest('digest')],
  RRSIG: (f) => [
    f.type('type covered'),
    f.u8('algorithm'),
    f.u8('labels'),
    f.ttl('original TTL'),
    f.time('expiration'),
    f.time('inception'),
    f.u16('key tag'),
    f.name('signer'),
    f.base64Rest('signature'),
  ],
  NSEC: (f) => [f.name('next domain'), f.typeBitmap()],
  NSEC3: (f) => [f.u8('hash algorithm'), f.u8('flags'), f.u16('iterations'), f.salt(), f.base32hex('next hashed owner'), f.typeBitmap()],
  NSEC3PARAM: (f) => [f.u8('hash algorithm'), f.u8('flags'), f.u16('iterations'), f.salt()],
  TLSA: (f) => [f.u8('usage'), f.u8('selector'), f.u8('matching type'), f.hexRest('association data')],
  SSHFP: (f) => [f.u8('algorithm'), f.u8('fingerprint type'), f.hexRest('fingerprint')],
  ZONEMD: (f) => [f.u32('serial'), f.u8('scheme'), f.u8('hash algorithm'), f.hexRest('digest')],
  SVCB: (f) => [f.u16('priority'), f.name('target'), svcParams(f.rest())],
  URI: (f) => [f.u16('priority'), f.u16('weight'), f.rawString('target')],
}
ENCODERS.SPF = ENCODERS.TXT as Encoder
ENCODERS.CDNSKEY = ENCODERS.DNSKEY as Encoder
ENCODERS.CDS = ENCODERS.DS as Encoder
ENCODERS.SMIMEA = ENCODERS.TLSA as Encoder
ENCODERS.HTTPS = ENCODERS.SVCB as Encoder

export function encodeRdata(code: number, tokens: ZoneToken[], origin: string): Buffer {
  if (tokens[0]?.text === '\\#' && !tokens[0].quoted) {
    const f = new Fields(tokens.slice(1), origin)
    const length = f.int('RDATA length', 0xffff)
    const data = f.hexRest('RDATA', true)
    if (data.length !== length) throw new Error(`\\# says ${length} bytes but has ${data.length}`)
    return data
  }
  const encoder = ENCODERS[typeName(code)]
  if (!encoder) throw new Error(`no presentation parser for ${typeName(code)}; write it as \\# <length> <hex>`)
  const f = new Fields(tokens, origin)
  const parts = encoder(f)
  f.done()
  const rdata = Buffer.concat(parts)
  if (rdata.length > 0xffff) throw new Error('RDATA longer than 65535 bytes')
  return rdata
}
