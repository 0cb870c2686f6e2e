// What the whois plugin offers other plugins (only to those naming "whois" in
// their `dependencies`, test/architecture/layers.test.ts). The client itself
// reaches resolvers as the `whois` upstream (ctx.upstreams.whois).

export type { RegistrarHop, WhoisAnswer, WhoisClient, WhoisDomainResult } from './whois-client.ts'
export type { WhoisRecord, WhoisRegistrar } from './parse/record.ts'
export type { WhoisNameserver } from './parse/nameservers.ts'
