// What a transport is given and what it returns: one query sent to one server, and
// the first reply that inspect() accepts, or a DnsError. Shared by UDP and TCP.

import { DnsError } from './dns-error.ts'
import type { DecodedReply, Inspection } from './dns-response.ts'
import type { DnsSocketFactory } from './dns-sockets.ts'

export interface ExchangeRequest {
  host: string
  port: number
  family: 4 | 6
  query: Buffer
  inspect: (message: Buffer) => Inspection
  timeoutMs: number
  signal: AbortSignal | undefined
  sockets: DnsSocketFactory
}

export type ExchangeOutcome = { kind: 'reply'; reply: DecodedReply } | { kind: 'truncated' }

export function abortedError(signal: AbortSignal, transport: 'udp' | 'tcp' | null): DnsError {
  return new DnsError('aborted', 'the query was aborted', { transport, cause: signal.reason })
}
