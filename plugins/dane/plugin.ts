import dnsDane from '../../registry/dns/dane.ts'
import emailDane from '../../registry/email/dane.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { probeTimeoutMs } from '../email/surface.ts'
import { checkDaneHost } from './dane-host.ts'
import { emailDane as checkEmailDane } from './email-dane.ts'

// DANE (RFC 6698, 7671; RFC 7672 for SMTP): /api/dns/dane for one TLS service and
// /api/email/dane for every MX host of a mail domain. The records come through the
// dns plugin's surface, their DNSSEC verdict from /api/dns/dnssec (ctx.invoke), the
// SMTP certificate from the email plugin's STARTTLS probe and any other from
// /api/tls/certificate (ctx.invoke).

export default definePlugin({
  name: 'dane',
  dependencies: ['dns', 'email'],
  setup(api) {
    const chain = { dns: api.dns, network: api.network, smtpPort: api.config.smtpPort, timeoutMs: probeTimeoutMs(api.config.requestTimeoutMs) }
    api.resolve(dnsDane, ({ host, port, proto }, ctx) => checkDaneHost(ctx, host, port, proto, { ...chain, referenceNames: [host], probeWithoutTlsa: true }))
    api.resolve(emailDane, ({ domain }, ctx) => checkEmailDane(ctx, domain, chain))
  },
})
