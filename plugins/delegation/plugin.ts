import delegation from '../../registry/domain/delegation.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { createDnsClient } from '../../runtime/net/dns/dns-client.ts'
import { checkDelegation } from './delegation.ts'

// Delegation health (/api/domain/delegation). Name servers are asked with a client
// of their own: no retries (a dropped question is the finding) and no circuit
// breaker shared with the resolvers (a lame server must not trip the service's own
// DNS). Its queries go only to addresses the target policy allows (probe-server.ts
// checks each), over plain sockets like the propagation resolvers'.

export default definePlugin({
  name: 'delegation',
  // domain: its surface decides "all name servers in one AS or /24" (diversity.ts);
  // dnssec: its surface matches DS to DNSKEY (ds-check.ts).
  dependencies: ['dns', 'domain', 'dnssec'],
  setup(api) {
    const client = createDnsClient({ servers: api.config.dnsResolvers, timeoutMs: api.config.dnsTimeoutMs, retries: 0 })
    const probe = { client, timeoutMs: api.config.dnsTimeoutMs, allowLoopback: api.config.allowPrivateTargets }
    api.resolve(delegation, ({ domain }, ctx) => checkDelegation(ctx, domain, api.dns, probe))
  },
})
