import { readFileSync } from 'node:fs'
import { rootCertificates } from 'node:tls'
import { definePlugin } from '../../runtime/define-plugin.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import type { GuardedNetwork } from '../../runtime/net/guarded-network.ts'
import dnsDmarc from '../../registry/dns/dmarc.ts'
import dnsSpf from '../../registry/dns/spf.ts'
import emailDiagnose from '../../registry/email/diagnose.ts'
import emailDkim from '../../registry/email/dkim.ts'
import emailDmarc from '../../registry/email/dmarc.ts'
import emailHealth from '../../registry/email/health.ts'
import emailMx from '../../registry/email/mx.ts'
import emailNetworksEndpoint from '../../registry/email/networks.ts'
import emailSpf from '../../registry/email/spf.ts'
import { inspectDkim } from './dkim/dkim-inspect.ts'
import { inspectDmarc } from './dmarc/dmarc-inspect.ts'
import type { EmailEnv } from './email-checks.ts'
import type { CachingEmailDns, Lookup } from './email-dns.ts'
import { createEmailDns, resolverFailure } from './email-dns.ts'
import { emailDiagnose as diagnose, emailHealth as health } from './email-report.ts'
import { inspectMx } from './mx/mx-inspect.ts'
import { emailNetworks } from './networks/networks.ts'
import { probeTimeoutMs } from './probe-timeout.ts'
import { inspectSpf } from './spf/spf-inspect.ts'
import { spfCheckRequest } from './spf/spf-sender.ts'

/** Where STARTTLS probes go, and which roots they trust. */
export interface SmtpUpstream {
  readonly network: GuardedNetwork
  /** INFRALENS_SMTP_PORT (25). */
  readonly port: number
  /** Node's roots plus INFRALENS_EXTRA_CA_FILE; undefined when there is no extra file. */
  readonly ca: string[] | undefined
}

/** MTA-STS policies are fetched over HTTPS, always from port 443 (RFC 8461 §3.3). */
export interface MtaStsUpstream {
  readonly network: GuardedNetwork
}

declare module '../../runtime/define-plugin.ts' {
  interface UpstreamRegistry {
    smtp: SmtpUpstream
    'mta-sts': MtaStsUpstream
  }
}

// Every email answer is built from DNS answers with their own TTLs: the cache keeps
// it no longer than the shortest of them (and health/diagnose at most 5 minutes,
// the descriptors' TTL, since SMTP probes have no TTL).
function finish<T>(dns: CachingEmailDns, ctx: ResolverContext, data: T): T {
  ctx.lowerTtl(dns.minTtl() ?? 60)
  return data
}

/** Asks the domain's first question up front (the checks reuse the answer) and turns a failed resolver into a 502. */
async function preflight(first: Promise<Lookup<unknown>>, name: string): Promise<void> {
  const failure = resolverFailure(await first, name)
  if (failure) throw failure
}

export default definePlugin({
  name: 'email',
  setup(api) {
    const extra = api.config.extraCaFile ? readFileSync(api.config.extraCaFile, 'utf8') : undefined
    const smtp: SmtpUpstream = { network: api.network, port: api.config.smtpPort, ca: extra ? [...rootCertificates, extra] : undefined }
    api.upstream('smtp', smtp)
    api.upstream('mta-sts', { network: api.network })
    const probeTimeout = probeTimeoutMs(api.config.requestTimeoutMs)

    const env = (ctx: ResolverContext): EmailEnv & { dns: CachingEmailDns } => {
      const dns = createEmailDns(api.dns, ctx.signal)
      return { dns, network: api.network, signal: dns.signal, smtpPort: smtp.port, ca: smtp.ca, allowLoopback: api.config.allowPrivateTargets, probeTimeoutMs: probeTimeout, now: ctx.clock.now() }
    }

    for (const endpoint of [emailSpf, dnsSpf]) {
      api.resolve(endpoint, async ({ domain, ip, sender, helo }, ctx) => {
        // A sender or helo that cannot be checked is a 400 before any DNS, even while DNS is down.
        spfCheckRequest(domain, { ip, sender, helo })
        const dns = createEmailDns(api.dns, ctx.signal)
        await preflight(dns.txt(domain), domain)
        return finish(dns, ctx, await inspectSpf(dns, domain, { ip, sender, helo, now: Math.floor(ctx.clock.now() / 1000) }))
      })
    }
    for (const endpoint of [emailDmarc, dnsDmarc]) {
      api.resolve(endpoint, async ({ domain }, ctx) => {
        const dns = createEmailDns(api.dns, ctx.signal)
        await preflight(dns.txt(`_dmarc.${domain}`), `_dmarc.${domain}`)
        return finish(dns, ctx, await inspectDmarc(dns, domain))
      })
    }
    api.resolve(emailDkim, async ({ domain, selectors }, ctx) => {
      const dns = createEmailDns(api.dns, ctx.signal)
      await preflight(dns.txt(`${selectors?.[0] ?? 'default'}._domainkey.${domain}`), domain)
      return finish(dns, ctx, await inspectDkim(dns, domain, selectors ?? []))
    })
    api.resolve(emailMx, async ({ domain }, ctx) => {
      const dns = createEmailDns(api.dns, ctx.signal)
      await preflight(dns.mx(domain), domain)
      return finish(dns, ctx, await inspectMx(dns, domain, { allowLoopback: api.config.allowPrivateTargets }))
    })
    api.resolve(emailHealth, async ({ domain, selectors }, ctx) => {
      const e = env(ctx)
      await preflight(e.dns.mx(domain), domain)
      return finish(e.dns, ctx, await health(e, domain, selectors ?? []))
    })
    // Its parts through ctx.invoke (email spf/mx, whois/ip, network intelligence, blocklist), STARTTLS probed here, within 80% of the request deadline.
    api.resolve(emailNetworksEndpoint, ({ domain }, ctx) =>
      emailNetworks(domain, ctx, { network: api.network, smtpPort: smtp.port, ca: smtp.ca, probeTimeoutMs: probeTimeout }, Math.floor(api.config.requestTimeoutMs * 0.8)),
    )
    api.resolve(emailDiagnose, async ({ domain, selectors }, ctx) => {
      const e = env(ctx)
      await preflight(e.dns.mx(domain), domain)
      return finish(e.dns, ctx, await diagnose(e, domain, selectors ?? []))
    })
  },
})
