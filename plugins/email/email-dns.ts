import { setMaxListeners } from 'node:events'
import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import { DnsError } from '../../runtime/net/dns/dns-error.ts'
import { UpstreamError } from '../../runtime/errors.ts'
import type { DnsAnswer } from '../../runtime/net/dns/dns-records.ts'

// The DNS the email checks see: five record types, answers reduced to what the
// checks need, and failures as data instead of exceptions (an SPF include that
// times out is a temperror in the result, not a 502 for the whole request). One
// instance lives for one request and answers each name/type once, so SPF, DMARC,
// MX and MTA-STS checks that ask the same question share the answer. The SPF
// evaluator and tests use the interface, not the client, so the RFC 7208 suite can
// feed it zone data directly.

export type LookupStatus = 'answer' | 'nodata' | 'nxdomain' | 'error'

export interface Lookup<T> {
  status: LookupStatus
  records: T[]
  /** Smallest TTL of the answer (negative answers: the SOA minimum); null when unknown. */
  ttl: number | null
  /** CNAME targets followed from the asked name, in order. */
  chain: string[]
  /** Why a lookup is 'error' (timeout, SERVFAIL, REFUSED, ...). */
  error?: string
  /** For 'error': SERVFAIL is an answer about the name; the others mean the resolver itself failed. */
  failure?: 'servfail' | 'refused' | 'timeout' | 'network' | 'bad_response' | 'aborted'
}

export interface TxtValue {
  /** The character-strings joined with nothing between them (RFC 7208 §3.3). */
  text: string
  strings: string[]
}

export interface MxValue {
  preference: number
  exchange: string
}

export interface EmailDns {
  txt(name: string): Promise<Lookup<TxtValue>>
  a(name: string): Promise<Lookup<string>>
  aaaa(name: string): Promise<Lookup<string>>
  mx(name: string): Promise<Lookup<MxValue>>
  ptr(name: string): Promise<Lookup<string>>
}

type RecordType = 'TXT' | 'A' | 'AAAA' | 'MX' | 'PTR'

export interface CachingEmailDns extends EmailDns {
  /** Smallest TTL over every answer so far: the cache TTL of whatever was built from them. */
  minTtl(): number | null
  /** The request's signal, as a child without a listener limit (for other fan-out work of the same request). */
  readonly signal: AbortSignal
}

function negativeTtl(answer: DnsAnswer): number | null {
  const soa = answer.authorities.find((r) => r.type === 'SOA')
  return soa ? Math.min(soa.ttl, (soa.data as { minimum: number }).minimum) : null
}

function toLookup<T>(answer: DnsAnswer, type: RecordType, pick: (data: unknown) => T): Lookup<T> {
  const chain = answer.answers.filter((r) => r.type === 'CNAME').map((r) => (r.data as { target: string }).target)
  if (answer.rcode === 'NXDOMAIN') return { status: 'nxdomain', records: [], ttl: negativeTtl(answer), chain }
  if (answer.rcode !== 'NOERROR') {
    const failure = answer.rcode === 'SERVFAIL' ? 'servfail' : answer.rcode === 'REFUSED' ? 'refused' : 'bad_response'
    return { status: 'error', records: [], ttl: null, chain, error: `${answer.rcode} from ${answer.server.name}`, failure }
  }
  const matching = answer.answers.filter((r) => r.type === type)
  if (matching.length === 0) return { status: 'nodata', records: [], ttl: negativeTtl(answer), chain }
  const ttls = answer.answers.filter((r) => r.type === type || r.type === 'CNAME').map((r) => r.ttl)
  return { status: 'answer', records: matching.map((r) => pick(r.data)), ttl: Math.min(...ttls), chain }
}

const PICK: Record<RecordType, (data: unknown) => unknown> = {
  TXT: (d) => ({ text: (d as TxtValue).text, strings: (d as TxtValue).strings }),
  A: (d) => (d as { address: string }).address,
  AAAA: (d) => (d as { address: string }).address,
  MX: (d) => ({ preference: (d as MxValue).preference, exchange: (d as MxValue).exchange }),
  PTR: (d) => (d as { target: string }).target,
}

/** The service's DNS client seen through the EmailDns interface, memoized for one request. */
export function createEmailDns(client: DnsClient, requestSignal: AbortSignal): CachingEmailDns {
  // One check sends dozens of queries at once (DKIM selectors), each listening for
  // abort: a child signal of our own carries them, so the request's signal keeps
  // one listener and Node's leak warning stays meaningful.
  const controller = new AbortController()
  setMaxListeners(0, controller.signal)
  if (requestSignal.aborted) controller.abort(requestSignal.reason)
  else requestSignal.addEventListener('abort', () => controller.abort(requestSignal.reason), { once: true })
  const signal = controller.signal
  const memo = new Map<string, Promise<Lookup<unknown>>>()
  let smallest: number | null = null

  const ask = <T>(name: string, type: RecordType): Promise<Lookup<T>> => {
    const key = `${type} ${name.toLowerCase().replace(/\.$/, '')}`
    let pending = memo.get(key)
    if (!pending) {
      pending = client.query(name, type, { signal }).then(
        (answer) => toLookup(answer, type, PICK[type]),
        (error: unknown) => ({
          status: 'error' as const,
          records: [],
          ttl: null,
          chain: [],
          error: (error as Error).message,
          failure: error instanceof DnsError ? (error.reason === 'timeout' || error.reason === 'aborted' || error.reason === 'refused' || error.reason === 'bad_response' ? error.reason : 'network') : 'network',
        }),
      )
      pending.then((result) => {
        // A failed lookup is cached by the pipeline for 30 s at most, like the DNS endpoints' SERVFAIL.
        const ttl = result.status === 'error' ? 30 : result.ttl
        if (ttl !== null) smallest = smallest === null ? ttl : Math.min(smallest, ttl)
      })
      memo.set(key, pending)
    }
    return pending as Promise<Lookup<T>>
  }

  return {
    txt: (name) => ask<TxtValue>(name, 'TXT'),
    a: (name) => ask<string>(name, 'A'),
    aaaa: (name) => ask<string>(name, 'AAAA'),
    mx: (name) => ask<MxValue>(name, 'MX'),
    ptr: (name) => ask<string>(name, 'PTR'),
    minTtl: () => smallest,
    signal,
  }
}

/**
 * The first question about the asked domain: if our resolver itself failed
 * (timeout, REFUSED), the answer is a 502 like every DNS endpoint's, not a report
 * that the domain is broken. SERVFAIL is an answer about the domain and stays data.
 */
export function resolverFailure(lookup: Lookup<unknown>, name: string): UpstreamError | null {
  if (lookup.status !== 'error' || lookup.failure === 'servfail') return null
  const reason = lookup.failure === 'timeout' || lookup.failure === 'aborted' ? 'timeout' : lookup.failure === 'refused' ? 'refused' : lookup.failure === 'bad_response' ? 'bad_response' : 'network'
  return new UpstreamError('dns', reason, `DNS lookup of ${name} failed: ${lookup.error ?? 'no answer'}`, { name })
}
