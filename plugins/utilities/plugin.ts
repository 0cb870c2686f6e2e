import { createHash } from 'node:crypto'
import { isIP } from 'node:net'
import { decodeTime } from 'ulid'
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { createUlidFactory, cryptoDigits } from '../../runtime/ulid-factory.ts'
import base64Decode from '../../registry/utilities/base64-decode.ts'
import base64Encode from '../../registry/utilities/base64-encode.ts'
import hash from '../../registry/utilities/hash.ts'
import myip from '../../registry/utilities/myip.ts'
import ulidEndpoint from '../../registry/utilities/ulid.ts'
import ulidBulk from '../../registry/utilities/ulid-bulk.ts'
import uuid from '../../registry/utilities/uuid.ts'
import uuidBulk from '../../registry/utilities/uuid-bulk.ts'
import { decodeBase64, toBytes } from './binary-input.ts'

// ignoreBOM: a leading U+FEFF is part of the decoded bytes, so it stays in the text.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

export default definePlugin({
  name: 'utilities',
  setup(api) {
    // One generator for the process keeps ULIDs monotonic (and ulid() re-detects
    // its random source on every call: notes/performance.md).
    const nextUlid = createUlidFactory(cryptoDigits, () => api.clock.now())
    const makeUuid = (version: '4' | '7') => (version === '7' ? uuidv7() : uuidv4())

    api.resolve(uuid, ({ version }) => ({ uuid: makeUuid(version), version: Number(version) }))
    // The service's most asked answer, never cached: its JSON written here (a UUID is
    // hex digits and hyphens, the version 4 or 7; test/utilities/uuid-json.test.ts
    // holds it to JSON.stringify) instead of by JSON.stringify, ~3 % of the request.
    api.encodeJson(uuid, (data) => `{"uuid":"${data.uuid}","version":${data.version}}`)

    api.resolve(uuidBulk, ({ count, version }) => ({
      version: Number(version),
      count,
      uuids: Array.from({ length: count }, () => makeUuid(version)),
    }))

    api.resolve(ulidEndpoint, () => {
      const id = nextUlid()
      const time = decodeTime(id)
      return { ulid: id, timestamp: new Date(time).toISOString(), time_ms: time }
    })

    api.resolve(ulidBulk, ({ count }) => ({ count, ulids: Array.from({ length: count }, () => nextUlid()) }))

    api.resolve(hash, ({ algorithm, input, input_encoding, encoding }) => {
      const bytes = toBytes(input, input_encoding)
      const digest = createHash(algorithm).update(bytes).digest()
      return { algorithm, digest: digest.toString(encoding), encoding, bits: digest.length * 8, input_bytes: bytes.length }
    })

    api.resolve(base64Encode, ({ input, input_encoding, variant }) => {
      const bytes = toBytes(input, input_encoding)
      return { output: bytes.toString(variant === 'url' ? 'base64url' : 'base64'), variant, input_bytes: bytes.length }
    })

    api.resolve(base64Decode, ({ input }) => {
      const { bytes, variant } = decodeBase64(input)
      let text: string | null = null
      try {
        text = utf8.decode(bytes)
      } catch {
        // Not UTF-8: the hex form below is the faithful answer.
      }
      return { text, valid_utf8: text !== null, hex: bytes.toString('hex'), bytes: bytes.length, variant }
    })

    api.resolve(myip, (_input, ctx) => {
      const family = isIP(ctx.caller.ip)
      return { ip: ctx.caller.ip, version: family === 4 ? (4 as const) : family === 6 ? (6 as const) : null }
    })
  },
})
