import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { TestCa } from '../support/certs.ts'
import { createTestCa } from '../support/certs.ts'
import type { FakeCrtsh } from '../support/fake-crtsh.ts'
import { startFakeCrtsh } from '../support/fake-crtsh.ts'
import type { FakeHttps } from '../support/fake-https.ts'
import { startFakeHttps } from '../support/fake-https.ts'
import type { FakeRdap } from '../support/fake-rdap.ts'
import { RDAP_ZONES, startFakeRdap } from '../support/fake-rdap.ts'
import type { FakeRipestat } from '../support/fake-ripestat.ts'
import { startFakeRipestat } from '../support/fake-ripestat.ts'
import type { FakeSmtp, FakeSmtpHost } from '../support/fake-smtp.ts'
import { startFakeSmtp } from '../support/fake-smtp.ts'
import type { FakeWeb } from '../support/fake-web.ts'
import { randomLoopback, startFakeWeb } from '../support/fake-web.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'
import type { FaultyTcp } from './faulty-tcp.ts'
import { startFaultyTcp } from './faulty-tcp.ts'

// Every upstream fake of the loopback internet, each able to fail, behind one
// service: RDAP, RIPEstat, crt.sh, two web sites (HTTP/1.1-only and HTTP/2 over
// TLS, plain http beside each), a TCP port for TLS targets that only misbehaves,
// mail hosts (one per SMTP fault) and MTA-STS policy hosts (one per HTTPS fault),
// all named in the zone faults.test.

export const REQUEST_TIMEOUT_MS = 2000
export const SMTP_FAULTS = ['hang', 'reset', 'garbage', 'drip', 'reject'] as const
export const POLICY_FAULTS = ['hang', 'reset', 'garbage', 'drip', 'status'] as const
export const ZONE = 'faults.test'

export interface FaultWorld {
  t: TestApp
  /** The environment `t` runs with (for another app on the same world). */
  env: Record<string, string>
  dns: LoopbackDns
  rdap: FakeRdap
  ripestat: FakeRipestat
  crtsh: FakeCrtsh
  /** HTTP/1.1 only over TLS (h1.faults.test) and HTTP/2 (h2.faults.test); each also plain http. */
  h1: FakeWeb
  h2: FakeWeb
  tls: FaultyTcp
  smtp: FakeSmtp
  https: FakeHttps
  close(): Promise<void>
}

const mailDomain = (fault: string) => `smtp-${fault}.${ZONE}`
const policyDomain = (fault: string) => `sts-${fault}.${ZONE}`
export { mailDomain, policyDomain }

export async function startFaultWorld(): Promise<FaultWorld> {
  const closers: Array<() => Promise<void> | void> = []
  try {
    const ca: TestCa = createTestCa('infralens fault matrix CA')
    closers.push(() => ca.close())
    const h1 = await startFakeWeb({ names: [`h1.${ZONE}`], ca, http2: false })
    closers.push(() => h1.close())
    const h2 = await startFakeWeb({ names: [`h2.${ZONE}`], ca })
    closers.push(() => h2.close())
    const tls = await startFaultyTcp(randomLoopback())
    closers.push(() => tls.close())
    const okMx = `mx.ok.${ZONE}`
    const hosts: FakeSmtpHost[] = [
      { address: randomLoopback(), hostname: okMx, tls: ca.issue([okMx]) },
      ...SMTP_FAULTS.map((fault) => ({ address: randomLoopback(), hostname: `mx.${mailDomain(fault)}`, fault, dripMs: 200 })),
    ]
    const smtp = await startFakeSmtp(hosts)
    closers.push(() => smtp.close())
    const policy = 'version: STSv1\r\nmode: enforce\r\nmx: *.faults.test\r\nmax_age: 86400\r\n'
    const httpsAddress = randomLoopback()
    const stsHosts = POLICY_FAULTS.map((fault) => `mta-sts.${policyDomain(fault)}`)
    const https = await startFakeHttps({
      address: httpsAddress,
      port: 443,
      certificates: Object.fromEntries(stsHosts.map((name) => [name, ca.issue([name])])),
      routes: Object.fromEntries(
        POLICY_FAULTS.map((fault) => [
          `mta-sts.${policyDomain(fault)}/.well-known/mta-sts.txt`,
          fault === 'status' ? { status: 503, body: '<html>maintenance</html>', headers: { 'content-type': 'text/html' } } : { body: policy, fault, dripMs: 200 },
        ]),
      ),
    })
    closers.push(() => https.close())

    const zone = `
$ORIGIN ${ZONE}.
$TTL 300
@ IN SOA ns1 hostmaster ( 1 3600 900 604800 60 )
@ IN NS ns1
ns1 IN A 192.0.2.53
h1 IN A ${h1.address}
h2 IN A ${h2.address}
tls IN A ${tls.address}
mx.ok IN A ${hosts[0]!.address}
${SMTP_FAULTS.map((fault, i) => `${mailDomain(fault)}. IN MX 10 mx.${mailDomain(fault)}.\nmx.${mailDomain(fault)}. IN A ${hosts[i + 1]!.address}`).join('\n')}
${POLICY_FAULTS.map((fault) => `${policyDomain(fault)}. IN MX 10 ${okMx}.\n_mta-sts.${policyDomain(fault)}. IN TXT "v=STSv1; id=20261124"\nmta-sts.${policyDomain(fault)}. IN A ${httpsAddress}`).join('\n')}
`
    const dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, ...RDAP_ZONES, zone], timeoutMs: 300 })
    closers.push(() => dns.close())
    const rdap = await startFakeRdap()
    closers.push(() => rdap.close())
    const ripestat = await startFakeRipestat()
    closers.push(() => ripestat.close())
    const crtsh = await startFakeCrtsh()
    closers.push(() => crtsh.close())
    const env = {
      ...dns.env,
      ...rdap.env,
      ...ripestat.env,
      ...crtsh.env,
      INFRALENS_EXTRA_CA_FILE: ca.caFile,
      INFRALENS_SMTP_PORT: String(smtp.port),
      INFRALENS_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      INFRALENS_RATE_LIMITS: 'anonymous=1000000',
      INFRALENS_CACHE_MAX_ENTRIES: '0',
      INFRALENS_STALE_IF_ERROR_S: '0',
      // Every fault must show its own reason; the breaker has its own row.
      INFRALENS_BREAKER_THRESHOLD: '1000',
      LOG_LEVEL: 'warn',
    }
    const t = await startTestApp(env)
    closers.push(() => t.close())
    return { t, env, dns, rdap, ripestat, crtsh, h1, h2, tls, smtp, https, close: () => closeAll(closers) }
  } catch (error) {
    await closeAll(closers)
    throw error
  }
}

async function closeAll(closers: Array<() => Promise<void> | void>): Promise<void> {
  for (const close of closers.reverse()) await close()
}
