import dnssec from '../../registry/dns/dnssec.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { DnsError } from '../../runtime/net/dns/dns-error.ts'
import { dnsUpstreamError } from '../../runtime/net/dns-host-lookup.ts'
import { createFetcher } from './dnssec-fetcher.ts'
import { presentValidation } from './present.ts'
import { loadTrustAnchors } from './trust-anchors.ts'
import { createValidator } from './validator.ts'

// Bogus and indeterminate verdicts are often passing trouble (a resolver hiccup, a
// re-sign in progress): they are kept briefly, not for the chain's TTL.
const FAILED_VERDICT_TTL = 30

export default definePlugin({
  name: 'dnssec',
  // Validated records are presented as the dns plugin presents them (plugins/dns/surface.ts).
  dependencies: ['dns'],
  setup(api) {
    // A bad anchors file stops start-up: validating against the wrong anchors is worse than not starting.
    const anchors = loadTrustAnchors(api.config.trustAnchorsFile)
    const validator = createValidator({ fetcher: createFetcher(api.dns), anchors, now: () => api.clock.now() })
    api.log.info({ source: anchors.source, anchors: anchors.anchors.length }, 'DNSSEC trust anchors loaded')

    api.resolve(dnssec, async ({ domain, type }, ctx) => {
      let result
      try {
        result = await validator.validate(domain, { type, signal: ctx.signal })
      } catch (error) {
        // A resolver that does not answer at all is the service's upstream failing (502);
        // one that answers SERVFAIL/REFUSED leaves the verdict indeterminate (200).
        if (error instanceof DnsError) throw dnsUpstreamError(error, domain)
        throw error
      }
      const secureOrInsecure = result.outcome.status === 'secure' || result.outcome.status === 'insecure'
      ctx.lowerTtl(secureOrInsecure ? Math.max(1, result.ttl) : Math.min(FAILED_VERDICT_TTL, Math.max(1, result.ttl)))
      return presentValidation(result, domain)
    })
  },
})
