import { InputError } from '../errors.ts'

/**
 * A connection the guard refused. It is a 400 when the caller named the target;
 * resolvers that meet it indirectly (a redirect, an MX host) catch it and report it.
 */
export class TargetBlockedError extends InputError {
  readonly host: string
  readonly refused: ReadonlyArray<{ address: string; reason: string }>

  constructor(host: string, refused: ReadonlyArray<{ address: string; reason: string }>) {
    const first = refused[0]
    super(
      first
        ? `Refusing to connect to ${host}${first.address !== host ? ` (${first.address})` : ''}: ${first.reason}. Only publicly routable targets can be checked.`
        : `Refusing to connect to ${host}: it has no publicly routable address.`,
      { param: 'target', host, refused: refused.map((r) => ({ ...r })), reason: 'blocked' },
    )
    this.host = host
    this.refused = refused
  }
}
