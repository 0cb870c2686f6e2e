// The one error the DNS client throws. `reason` maps onto the gateway's upstream error
// reasons; `attempts` tells an operator what happened at each server in turn.

import type { DnsServerInfo } from './dns-records.ts'

export type DnsErrorReason = 'timeout' | 'refused' | 'bad_response' | 'network' | 'aborted'

export interface DnsAttempt {
  server: DnsServerInfo
  transport: 'udp' | 'tcp'
  reason: DnsErrorReason
  message: string
}

export class DnsError extends Error {
  override readonly name = 'DnsError'
  readonly reason: DnsErrorReason
  /** The server of the last attempt; null when the query never got to one (aborted before start). */
  readonly server: DnsServerInfo | null
  readonly transport: 'udp' | 'tcp' | null
  /** Every failed attempt in order, this one last. */
  readonly attempts: DnsAttempt[]

  constructor(
    reason: DnsErrorReason,
    message: string,
    options: { server?: DnsServerInfo | null; transport?: 'udp' | 'tcp' | null; attempts?: DnsAttempt[]; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.reason = reason
    this.server = options.server ?? null
    this.transport = options.transport ?? null
    this.attempts = options.attempts ?? []
  }
}

/** Socket errors by errno: a refused port is worth telling apart from a broken path. */
export function reasonOfSocketError(error: unknown): DnsErrorReason {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'ECONNREFUSED' ? 'refused' : 'network'
}
