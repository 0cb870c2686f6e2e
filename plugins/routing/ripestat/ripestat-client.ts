import { UpstreamError, isApiError } from '../../../runtime/errors.ts'
import type { GuardedNetwork, HttpResponse } from '../../../runtime/net/guarded-network.ts'
import { TargetBlockedError } from '../../../runtime/net/target-blocked-error.ts'
import type { RawObject } from '../../../runtime/raw-json.ts'
import { arr, int, obj, str } from '../../../runtime/raw-json.ts'

// One RIPEstat Data API call (https://stat.ripe.net/docs/data-api): GET
// <base>/data/<call>/data.json?resource=…&sourceapp=infralens through the guarded
// network (upstream "ripestat": its circuit breaker and concurrency bound). Every
// way it can fail is a 502 naming RIPEstat and the reason:
//   429, 5xx, other non-2xx            -> http_error, with the status (and Retry-After)
//   HTML error page, not JSON          -> bad_response, with the content type
//   JSON with status other than "ok"   -> bad_response, with RIPEstat's own messages
//   no `data` object                   -> bad_response
//   timeout, reset, refused            -> from the guard (timeout, reset, refused, network)
// The envelope's `messages` (stale data, visibility filters, query-time changes)
// travel with the data so answers can pass them on.

export type DataCall = 'prefix-overview' | 'announced-prefixes' | 'routing-status' | 'asn-neighbours' | 'as-overview' | 'network-info'

export interface RipestatMessage {
  /** The data call that said it. */
  call: DataCall
  /** RIPEstat's level: info, warning, error. */
  level: string
  text: string
}

export interface RipestatAnswer {
  call: DataCall
  url: string
  data: RawObject
  messages: RipestatMessage[]
  /** RIPEstat's own timestamp of the answer. */
  time: string | null
}

export interface RipestatCallOptions {
  signal?: AbortSignal
  /** Per-call deadline; default the client's. */
  timeoutMs?: number
}

export interface RipestatClient {
  readonly baseUrl: string
  call(call: DataCall, resource: string, options?: RipestatCallOptions): Promise<RipestatAnswer>
}

export interface RipestatClientOptions {
  network: GuardedNetwork
  baseUrl: string
  timeoutMs: number
  /** RIPEstat asks callers to identify themselves with this parameter. */
  sourceapp?: string
}

const MAX_BYTES = 16 * 1024 * 1024

function messagesOf(call: DataCall, value: unknown): RipestatMessage[] {
  const out: RipestatMessage[] = []
  for (const m of arr(value)) {
    const pair = arr(m)
    const level = str(pair[0])
    const text = str(pair[1])
    if (level && text) out.push({ call, level: level.toLowerCase(), text })
  }
  return out
}

export function createRipestatClient(options: RipestatClientOptions): RipestatClient {
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`
  const sourceapp = options.sourceapp ?? 'infralens'

  async function send(url: string, o: RipestatCallOptions): Promise<HttpResponse> {
    try {
      return await options.network.request(url, {
        headers: { accept: 'application/json' },
        timeoutMs: o.timeoutMs ?? options.timeoutMs,
        maxBytes: MAX_BYTES,
        upstream: 'ripestat',
        ...(o.signal ? { signal: o.signal } : {}),
      })
    } catch (error) {
      if (error instanceof TargetBlockedError) {
        // The base URL is configuration, not caller input: a refused target is our upstream's failure.
        throw new UpstreamError('ripestat', 'blocked', `Refusing to query RIPEstat at ${error.host}: ${error.refused[0]?.reason ?? 'not a public address'}.`, { url })
      }
      if (error instanceof UpstreamError && error.details.upstream !== 'ripestat') {
        throw new UpstreamError('ripestat', 'network', `Could not reach RIPEstat: ${error.message}`, { url, cause: { ...error.details } })
      }
      if (isApiError(error)) throw error
      throw new UpstreamError('ripestat', 'network', `Could not query RIPEstat: ${(error as Error).message}`, { url })
    }
  }

  return {
    baseUrl: base,
    async call(call, resource, o = {}) {
      const target = new URL(`data/${call}/data.json`, base)
      target.searchParams.set('resource', resource)
      target.searchParams.set('sourceapp', sourceapp)
      const url = target.href
      const res = await send(url, o)
      const contentType = typeof res.headers['content-type'] === 'string' ? res.headers['content-type'] : null
      let body: RawObject | null = null
      try {
        body = obj(JSON.parse(res.body.toString('utf8')))
      } catch {
        body = null
      }
      if (res.status < 200 || res.status > 299) {
        const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined
        const why = res.status === 429 ? 'is rate limiting us' : res.status >= 500 ? 'failed' : 'refused the query'
        throw new UpstreamError('ripestat', 'http_error', `RIPEstat ${why} (HTTP ${res.status}) for ${call} ${resource}.`, {
          url,
          status: res.status,
          ...(retryAfter ? { retry_after: retryAfter } : {}),
          ...(body ? { ripestat_messages: messagesOf(call, body.messages).map((m) => m.text) } : {}),
        })
      }
      if (!body) {
        throw new UpstreamError('ripestat', 'bad_response', `RIPEstat did not answer ${call} ${resource} with JSON${contentType ? ` (it sent ${contentType.split(';')[0]})` : ''}.`, {
          url,
          status: res.status,
          content_type: contentType,
        })
      }
      const status = str(body.status)
      const messages = messagesOf(call, body.messages)
      if (status !== 'ok') {
        const said = messages.filter((m) => m.level === 'error').map((m) => m.text)
        throw new UpstreamError('ripestat', 'bad_response', `RIPEstat answered ${call} ${resource} with status "${status ?? 'missing'}"${said.length ? `: ${said.join('; ')}` : ''}.`, {
          url,
          status: int(body.status_code) ?? res.status,
          ripestat_messages: messages.map((m) => m.text),
        })
      }
      const data = obj(body.data)
      if (!data) throw new UpstreamError('ripestat', 'bad_response', `RIPEstat's ${call} answer for ${resource} has no data object.`, { url })
      return { call, url, data, messages, time: str(body.time) }
    },
  }
}
