import { defineFormat } from '../../runtime/define-format.ts'
import type { FormatContext } from '../../runtime/define-format.ts'
import type { SuccessEnvelope } from '../../runtime/envelope.ts'

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

/** Frozen objects (the runtime's shared meta blocks) never change: their JSON is kept. */
function frozenJson(value: object): string {
  if (!Object.isFrozen(value)) return JSON.stringify(value)
  let json = memo.get(value)
  if (json === undefined) {
    json = JSON.stringify(value)
    memo.set(value, json)
  }
  return json
}

function compact(envelope: SuccessEnvelope, ctx: FormatContext): string {
  let out = `{"success":true,"data":${dataJson(envelope.data, ctx.stableData)}`
  if (envelope.meta !== undefined) out += `,"meta":${frozenJson(envelope.meta)}`
  if (envelope.links !== undefined) out += `,"links":{"self":${JSON.stringify(envelope.links.self)}}`
  return `${out},"timestamp":"${envelope.timestamp}","request_id":"${envelope.request_id}"}`
}

export const jsonFormat = defineFormat({
  name: 'json',
  contentType: 'application/json; charset=utf-8',
  success: (envelope, ctx) => (ctx.pretty ? JSON.stringify(envelope, null, 2) : compact(envelope, ctx)),
  error: (envelope, ctx) => (ctx.pretty ? JSON.stringify(envelope, null, 2) : JSON.stringify(envelope)),
  raw: (data, ctx) => (ctx.pretty ? JSON.stringify(data, null, 2) : dataJson(data, ctx.stableData)),
})
