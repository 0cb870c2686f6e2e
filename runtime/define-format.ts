import type { AnyEndpoint } from './define-endpoint.ts'
import type { ErrorEnvelope, SuccessEnvelope } from './envelope.ts'

export interface FormatContext {
  pretty: boolean
  /** The endpoint answered, absent for errors outside any route (404). */
  endpoint: AnyEndpoint | undefined
  /** Response headers; a format may add its own (csv carries envelope fields here). */
  headers: Record<string, string>
  /**
   * `data` is a cached object that later requests will send again, unchanged (the
   * cache holds it and shaping did not copy it): a format may memoize its
   * serialization by object identity.
   */
  stableData?: boolean
  /**
   * The endpoint's own JSON encoder for `data` (api.encodeJson), given only while
   * `data` is the resolver's unshaped answer: the compact JSON format may use it
   * instead of JSON.stringify (it writes the same text).
   */
  encodeData?: (data: unknown) => string
}

/** One serialization of the envelope, selected with `format=`. */
export interface Format {
  name: string
  contentType: string
  success(envelope: SuccessEnvelope, ctx: FormatContext): string
  /** Absent: errors in this format are answered as JSON. */
  error?(envelope: ErrorEnvelope, ctx: FormatContext): string
  /** Data without envelope (descriptors with envelope: false); absent: JSON. */
  raw?(data: unknown, ctx: FormatContext): string
  /**
   * The envelope as bytes, with data's top-level `key` an EncodedJson written as
   * it is (descriptor `preEncoded`). Absent: the list is decoded and success() runs.
   */
  spliced?(envelope: SuccessEnvelope, key: string, ctx: FormatContext): Uint8Array<ArrayBuffer>
}

export function defineFormat(format: Format): Format {
  return format
}
