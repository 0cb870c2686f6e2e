import { dkimKey } from '../email/email-zones.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { TestCa } from '../support/certs.ts'
import { createTestCa } from '../support/certs.ts'
import type { FakeRdap } from '../support/fake-rdap.ts'
import { startFakeRdap } from '../support/fake-rdap.ts'
import type { FakeSmtp } from '../support/fake-smtp.ts'
import { startFakeSmtp } from '../support/fake-smtp.ts'
import type { FakeWeb } from '../support/fake-web.ts'
import { randomLoopback, startFakeWeb } from '../support/fake-web.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'

// The domains the report tests look at, each a whole deployment on the loopback
// internet: zones on the loopback resolver, a web site (https + http) on one
// fake, mail hosts on fake SMTP, registrations on the fake RDAP (a registry for
// .test, named by a bootstrap of our own).
//
//   report-good.test    two name servers, CAA, SPF/DKIM/DMARC reject, MX with
//                       STARTTLS, a site with every security header: high scores
//   report-broken.test  one name server, SPF +all, no DMARC, an MX without
//                       STARTTLS, a site with bad headers on a certificate for
//                       another name, registered 10 days ago, expiring in 20
//   report-down.test    fine DNS and mail, but nothing listens on its address
//   report-nordap.test  fine, but its registry answers 500
//   report-bare.test    mail only: no A/AAAA record, so no TLS or web to check
//   report-dark.test    its zone and its registry both fail (the resolver
//                       drops its queries, the registry answers 500)

const DAY = 86_400_000

export const SITE_HEADERS: Record<string, string | string[]> = {
  'content-type': 'text/html; charset=utf-8',
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'content-security-policy': "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'set-cookie': '__Host-sid=1; Path=/; Secure; HttpOnly; SameSite=Lax',
}

export const BAD_HEADERS: Record<string, string | string[]> = {
  'content-type': 'text/html',
  'content-security-policy': "default-src *; script-src 'self' 'unsafe-inline' 'unsafe-eval'",
  'x-content-type-options': 'sniff',
  'referrer-policy': 'unsafe-url',
  'set-cookie': 'PHPSESSID=xyz; path=/',
}

export interface ReportWorld {
  ca: TestCa
  web: FakeWeb
  smtp: FakeSmtp
  rdap: FakeRdap
  dns: LoopbackDns
  t: TestApp
  /**
   * Another service on the same fakes, with its own cache and its own DNS and
   * upstream breakers (for tests whose failures must not touch `t`).
   */
  app(env?: Record<string, string>): Promise<TestApp>
  /** The https port of the sites (what ?port= says). */
  port: number
  /** An address nothing listens on (report-down.test). */
  deadAddress: string
  close(): Promise<void>
}

function rdapDomain(name: string, registered: number, expires: number, registrar: string): Record<string, unknown> {
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')
  return {
    objectClassName: 'domain',
    ldhName: name.toUpperCase(),
    status: ['client transfer prohibited'],
    entities: [{ objectClassName: 'entity', handle: '9999', roles: ['registrar'], vcardArray: ['vcard', [['version', {}, 'text', '4.0'], ['fn', {}, 'text', registrar]]] }],
    events: [
      { eventAction: 'registration', eventDate: iso(registered) },
      { eventAction: 'expiration', eventDate: iso(expires) },
    ],
    nameservers: [{ objectClassName: 'nameserver', ldhName: `NS1.${name.toUpperCase()}` }],
    rdapConformance: ['rdap_level_0'],
  }
}

const zone = (origin: string, body: string) => `
$ORIGIN ${origin}.
$TTL 300
@ IN SOA ns1 hostmaster ( 1 3600 900 604800 300 )
${body}
`

export async function startReportWorld(env: Record<string, string> = {}): Promise<ReportWorld> {
  const ca = createTestCa('infralens report tests CA')
  const smtpGood = randomLoopback()
  const smtpPlain = randomLoopback()
  const deadAddress = randomLoopback()
  const smtp = await startFakeSmtp([
    { address: smtpGood, hostname: 'mx1.report-good.test', tls: ca.issue(['mx1.report-good.test', 'mx1.report-down.test', 'mx1.report-nordap.test', 'mx1.report-bare.test']) },
    { address: smtpPlain, hostname: 'mx.report-broken.test' },
  ])
  // One site per name; report-broken.test is served on a certificate for the other names only.
  const web = await startFakeWeb({ names: ['report-good.test', 'report-nordap.test'], ca })
  for (const host of ['report-good.test', 'report-nordap.test']) {
    web.route(`https://${host}/`, { headers: SITE_HEADERS, body: '<!doctype html><title>fine</title>' })
    web.route(`http://${host}/`, { status: 301, headers: { location: `https://${host}:${web.httpsPort}/` } })
  }
  web.route('https://report-broken.test/', { headers: BAD_HEADERS, body: '<p>broken' })
  web.route('http://report-broken.test/', { headers: BAD_HEADERS, body: '<p>broken' })

  const dkim = `selector1._domainkey IN TXT "v=DKIM1; k=rsa; " "p=${dkimKey(2048)}"`
  const fineMail = (origin: string) => `@ IN NS ns1
@ IN NS ns2
ns1 IN A 192.0.2.53
ns2 IN A 198.51.100.54
@ IN CAA 0 issue "letsencrypt.org"
@ IN MX 10 mx1
mx1 IN A ${smtpGood}
@ IN TXT "v=spf1 mx -all"
_dmarc IN TXT "v=DMARC1; p=reject; rua=mailto:dmarc@${origin}"
${dkim}`
  const zones = [
    zone('report-good.test', `${fineMail('report-good.test')}\n@ IN A ${web.address}\nwww IN A ${web.address}`),
    zone('report-nordap.test', `${fineMail('report-nordap.test')}\n@ IN A ${web.address}\nwww IN A ${web.address}`),
    zone('report-down.test', `${fineMail('report-down.test')}\n@ IN A ${deadAddress}`),
    zone('report-bare.test', fineMail('report-bare.test')),
    zone('report-dark.test', `@ IN NS ns1\nns1 IN A 192.0.2.53\n@ IN A ${deadAddress}`),
    zone(
      'report-broken.test',
      `@ IN NS ns1
ns1 IN A 192.0.2.53
@ IN A ${web.address}
@ IN MX 10 mx
mx IN A ${smtpPlain}
@ IN TXT "v=spf1 +all"`,
    ),
  ]
  const dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, ...zones] })
  // The resolver drops everything about report-dark.test: its queries time out.
  dns.resolver.setFault({ kind: 'drop', name: 'report-dark.test' })

  const rdap = await startFakeRdap({ host: randomLoopback() })
  const registry = `${rdap.origin}/rdap.report-registry.test/`
  rdap.setBootstrap('dns', { version: '1.0', publication: '2026-01-01T00:00:00Z', services: [[['test'], [registry]]] })
  const now = Date.now()
  for (const name of ['report-good.test', 'report-down.test', 'report-bare.test', 'report-nordap.test', 'report-dark.test']) {
    rdap.serve(`/rdap.report-registry.test/domain/${name}`, rdapDomain(name, now - 5 * 365 * DAY, now + 300 * DAY, 'Example Registrar, Inc.'))
  }
  rdap.serve('/rdap.report-registry.test/domain/report-broken.test', rdapDomain('report-broken.test', now - 10 * DAY, now + 20 * DAY, 'Fly-by-night Names'))
  rdap.setFault({ fault: { kind: 'status', status: 500 }, match: /report-(nordap|dark)\.test/ })

  const appEnv = {
    ...dns.env,
    ...rdap.env,
    INFRALENS_DNS_TIMEOUT_MS: '1000',
    INFRALENS_RATE_LIMITS: 'anonymous=100000',
    INFRALENS_SMTP_PORT: String(smtp.port),
    INFRALENS_EXTRA_CA_FILE: ca.caFile,
    ...env,
  }
  const t = await startTestApp(appEnv)
  return {
    ca,
    web,
    smtp,
    rdap,
    dns,
    t,
    app: (more = {}) => startTestApp({ ...appEnv, ...more }),
    port: web.httpsPort,
    deadAddress,
    async close() {
      await t.close()
      await Promise.all([web.close(), smtp.close(), rdap.close(), dns.close()])
      ca.close()
    },
  }
}
