import { defineFormat } from '../../runtime/define-format.ts'
import type { FormatContext } from '../../runtime/define-format.ts'
import type { SuccessEnvelope } from '../../runtime/envelope.ts'
import { EncodedJson } from '../../runtime/encoded-json.ts'
import { jsonString } from '../../runtime/json-string.ts'

// Cached data goes out again and again unchanged: its JSON is kept beside the
// object (WeakMap, so it leaves with the cache entry) and spliced into the
// envelope, which is written by hand in the contract's key order. timestamp and
// request_id are ISO dates and ULIDs: nothing in them needs escaping.
const memo = new WeakMap<object, string>()

function dataJson(data: unknown, stable: boolean | undefined): string {
  if (!stable || typeof data !== 'object' || data === null) return JSON.stringify(data) ?? 'null'
  let json = memo.get(data)
  if (json === undefined) {
    json = JSON.stringify(data)
    memo.set(data, json)
  }
  return json
}

/**
 * Frozen objects (the runtime's shared meta blocks) never change: their JSON is
 * kept. Only frozen ones are ever kept, so a hit needs no isFrozen check.
 */
function frozenJson(value: object): string {
  let json = memo.get(value)
  if (json !== undefined) return json
  json = JSON.stringify(value)
  if (Object.isFrozen(value)) memo.set(value, json)
  return json
}

/** What follows data in the envelope. */
function afterData(envelope: SuccessEnvelope): string {
  let out = ''
  if (envelope.meta !== undefined) out += `,"meta":${frozenJson(envelope.meta)}`
  if (envelope.links !== undefined) out += `,"links":{"self":${jsonString(envelope.links.self)}}`
  return `${out},"timestamp":"${envelope.timestamp}","request_id":"${envelope.request_id}"}`
}

function compact(envelope: SuccessEnvelope, ctx: FormatContext): string {
  // A fresh answer its endpoint can encode itself skips JSON.stringify (api.encodeJson);
  // a cached one is kept anyway.
  const data = !ctx.stableData && ctx.encodeData !== undefined ? ctx.encodeData(envelope.data) : dataJson(envelope.data, ctx.stableData)
  return `{"success":true,"data":${data}${afterData(envelope)}`
}

/**
 * compact() with data's `key` already JSON bytes (runtime/encoded-json.ts): data
 * is written member by member as JSON.stringify would (its key order, undefined
 * members left out), the bytes in their place, so the answer is byte for byte
 * compact()'s on the decoded list (test/gateway/encoded-json.test.ts).
 */
function spliced(envelope: SuccessEnvelope, key: string, _ctx: FormatContext): Uint8Array<ArrayBuffer> {
  const data = envelope.data as Record<string, unknown>
  const parts: Uint8Array[] = []
  let text = '{"success":true,"data":{'
  let first = true
  for (const name of Object.keys(data)) {
    const value = data[name]
    const json = name === key && value instanceof EncodedJson ? undefined : JSON.stringify(value)
    if (json === undefined && !(value instanceof EncodedJson)) continue
    text += `${first ? '' : ','}${JSON.stringify(name)}:`
    first = false
    if (json !== undefined) {
      text += json
      continue
    }
    parts.push(Buffer.from(text, 'utf8'), ...(value as EncodedJson).chunks)
    text = ''
  }
  parts.push(Buffer.from(`${text}}${afterData(envelope)}`, 'utf8'))
  return Buffer.concat(parts)
}

export const jsonFormat = defineFormat({
  name: 'json',
  contentType: 'application/json; charset=utf-8',
  success: (envelope, ctx) => (ctx.pretty ? JSON.stringify(envelope, null, 2) : compact(envelope, ctx)),
  error: (envelope, ctx) => (ctx.pretty ? JSON.stringify(envelope, null, 2) : JSON.stringify(envelope)),
  raw: (data, ctx) => (ctx.pretty ? JSON.stringify(data, null, 2) : dataJson(data, ctx.stableData)),
  spliced,
})
