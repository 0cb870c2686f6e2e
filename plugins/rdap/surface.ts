// What the rdap plugin offers other plugins: the one file of plugins/rdap/ another
// plugin may import, and only when it names "rdap" in its `dependencies`
// (test/architecture/layers.test.ts). Re-exports, the sanctioned exception to
// "no barrels". The client itself reaches resolvers as the `rdap` upstream
// (ctx.upstreams.rdap); these are its type and what is computed from it.

export type { DomainResult, RdapClient } from './rdap-client.ts'
export type { NameserverInfo } from './normalize-domain.ts'
/** An AS number's registration, as /api/asn and the routing answers show it. */
export { asnRegistration } from './asn-registration.ts'
/** The special-purpose ASN ranges (private use, documentation, AS_TRANS, ...). */
export { specialAsn } from './asn-special.ts'
export type { NormalizedDomain } from './normalize-domain.ts'
export type { BootstrapSource } from './bootstrap-store.ts'
/** A status as a registry writes it (RDAP or EPP spelling) to both spellings and a meaning; WHOIS answers use it too. */
export { describeStatus } from './epp-status.ts'
