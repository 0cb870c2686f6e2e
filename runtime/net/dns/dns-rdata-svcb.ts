// SVCB and HTTPS RDATA (RFC 9460 §2.2, §7; dohpath RFC 9461; ohttp RFC 9540).
// dns-packet 5.6 has no decoder for these types, so this one is written from the RFC.

import ipaddr from 'ipaddr.js'
import { codecs } from './dns-packet-codecs.ts'
import type { SvcbData, SvcParams } from './dns-records.ts'

const KEY_NAMES = ['mandatory', 'alpn', 'no-default-alpn', 'port', 'ipv4hint', 'ech', 'ipv6hint', 'dohpath', 'ohttp'] as const

export function svcParamKeyName(key: number): string {
  return KEY_NAMES[key] ?? `key${key}`
}

function malformed(what: string): never {
  throw new RangeError(`SVCB ${what}`)
}

function addresses(value: Buffer, size: 4 | 16): string[] {
  if (value.length === 0 || value.length % size !== 0) malformed(`${size === 4 ? 'ipv4hint' : 'ipv6hint'} length ${value.length}`)
  const out: string[] = []
  for (let i = 0; i < value.length; i += size) out.push(ipaddr.fromByteArray([...value.subarray(i, i + size)]).toString())
  return out
}

function decodeParam(params: SvcParams, key: number, value: Buffer): void {
  switch (key) {
    case 0: {
      if (value.length === 0 || value.length % 2 !== 0) malformed('mandatory list length')
      const keys: string[] = []
      for (let i = 0; i < value.length; i += 2) keys.push(svcParamKeyName(value.readUInt16BE(i)))
      params.mandatory = keys
      return
    }
    case 1: {
      const ids: string[] = []
      let pos = 0
      while (pos < value.length) {
        const len = value[pos] as number
        if (len === 0 || pos + 1 + len > value.length) malformed('alpn list')
        ids.push(value.toString('utf8', pos + 1, pos + 1 + len))
        pos += 1 + len
      }
      if (ids.length === 0) malformed('empty alpn')
      params.alpn = ids
      return
    }
    case 2:
      if (value.length !== 0) malformed('no-default-alpn has a value')
      params['no-default-alpn'] = true
      return
    case 3:
      if (value.length !== 2) malformed('port length')
      params.port = value.readUInt16BE(0)
      return
    case 4:
      params.ipv4hint = addresses(value, 4)
      return
    case 5:
      params.ech = value.toString('base64')
      return
    case 6:
      params.ipv6hint = addresses(value, 16)
      return
    case 7:
      params.dohpath = value.toString('utf8')
      return
    case 8:
      if (value.length !== 0) malformed('ohttp has a value')
      params.ohttp = true
      return
    default:
      params[`key${key}`] = value.toString('hex')
  }
}

/** Decodes uncompressed SVCB/HTTPS RDATA. Throws RangeError on malformed input. */
export function decodeSvcb(rdata: Buffer): SvcbData {
  if (rdata.length < 3) malformed('RDATA too short')
  const priority = rdata.readUInt16BE(0)
  const target = codecs.name.decode(rdata, 2)
  let pos = 2 + codecs.name.decode.bytes
  const params: SvcParams = {}
  let lastKey = -1
  while (pos < rdata.length) {
    if (pos + 4 > rdata.length) malformed('parameter header truncated')
    const key = rdata.readUInt16BE(pos)
    const len = rdata.readUInt16BE(pos + 2)
    // RFC 9460 §2.2: keys strictly increasing, so duplicates and reordering are malformed.
    if (key <= lastKey) malformed(`key ${key} out of order`)
    lastKey = key
    if (pos + 4 + len > rdata.length) malformed(`value of key ${key} truncated`)
    decodeParam(params, key, rdata.subarray(pos + 4, pos + 4 + len))
    pos += 4 + len
  }
  return { priority, mode: priority === 0 ? 'alias' : 'service', target, params }
}
