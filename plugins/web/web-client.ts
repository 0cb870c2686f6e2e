import { createSecureContext, rootCertificates } from 'node:tls'
import type { SecureContext } from 'node:tls'
import type { GuardedNetwork } from '../../runtime/net/guarded-network.ts'

// What the web checks need to reach a site: the guarded network (every name
// resolved by the service's resolver, every address vetted, sockets pinned) and
// the roots a certificate is judged against. Registered as the "web" upstream so
// other plugins (the report) call the same functions with the same client.

export interface WebClient {
  readonly network: GuardedNetwork
  /**
   * Node's bundled roots plus INFRALENS_EXTRA_CA_FILE, built once (parsing the
   * roots per handshake costs ~100 ms); undefined: Node's default context.
   */
  readonly secureContext: SecureContext | undefined
  /** The User-Agent every web check sends. */
  readonly userAgent: string
}

export const WEB_USER_AGENT = 'Mozilla/5.0 (compatible; infralens/1.0; +https://github.com/infralens)'

export function createWebClient(network: GuardedNetwork, extraCaPem?: string): WebClient {
  return { network, secureContext: extraCaPem ? createSecureContext({ ca: [...rootCertificates, extraCaPem] }) : undefined, userAgent: WEB_USER_AGENT }
}
