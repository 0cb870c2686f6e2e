import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DNSBL_ZONES } from './dnsbl-zones.ts'
import { serveExampleRdap } from './example-rdap.ts'
import { startFakeCrtsh } from './fake-crtsh.ts'
import { RDAP_ZONES, startFakeRdap } from './fake-rdap.ts'
import { startFakeRipestat } from './fake-ripestat.ts'
import { startFakeTlsProfiles } from './fake-tls-profiles.ts'
import { startFakeVrp } from './fake-vrp.ts'
import { startFakeWhois } from './fake-whois.ts'
import { startExampleWeb } from './fake-web.ts'
import { DEFAULT_ZONES, startLoopbackDns } from './loopback-dns.ts'
import { startExampleTlsHost } from './tls-servers.ts'
import type { WorldTime } from './world-time.ts'
import { hostTime } from './world-time.ts'

// The whole loopback internet in one call: what every endpoint's descriptor
// `example` needs to answer offline — the example answers of the API reference
// (scripts/docs-examples.ts, test/gateway/docs-examples.test.ts), the typed-client
// and browser tests. A new fake upstream belongs here too, so the examples of its
// endpoints can be recorded.

export interface LoopbackInternet {
  /** Points the app at the fakes (and lets it connect to loopback). */
  env: Record<string, string>
  close(): Promise<void>
}

/** `time`: when the world lives (world-time.ts): around the host's now unless a test fixes it. */
export async function startLoopbackInternet(time: WorldTime = hostTime()): Promise<LoopbackInternet> {
  const closers: Array<() => Promise<void> | void> = []
  try {
    const web = await startExampleWeb(time)
    closers.push(() => web.close())
    const tls = await startExampleTlsHost({ time })
    closers.push(() => tls.close())
    const rdap = await startFakeRdap()
    closers.push(() => rdap.close())
    serveExampleRdap(rdap, time.now)
    const ripestat = await startFakeRipestat()
    closers.push(() => ripestat.close())
    const vrp = await startFakeVrp({ now: time.now })
    closers.push(() => vrp.close())
    const crtsh = await startFakeCrtsh()
    closers.push(() => crtsh.close())
    // The TLS profiles (Mozilla's guidelines JSON), a document written for the tests.
    const profiles = await startFakeTlsProfiles()
    closers.push(() => profiles.close())
    // Port-43 WHOIS for the TLDs without RDAP (IANA's server and the registries' of the synthetic answers, test/fixtures/whois-synthetic).
    const whois = await startFakeWhois()
    closers.push(() => whois.close())
    const dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, ...RDAP_ZONES, ...DNSBL_ZONES, ...whois.zones, web.zone, tls.zone] })
    closers.push(() => dns.close())
    // The web and TLS fakes each have their own test root; the service takes one file of extra roots.
    const dir = mkdtempSync(join(tmpdir(), 'infralens-internet-'))
    closers.push(() => rmSync(dir, { recursive: true, force: true }))
    const caFile = join(dir, 'roots.pem')
    writeFileSync(caFile, [web.env.INFRALENS_EXTRA_CA_FILE, tls.env.INFRALENS_EXTRA_CA_FILE].map((file) => readFileSync(file!, 'utf8')).join('\n'))
    return {
      env: { ...web.env, ...tls.env, ...rdap.env, ...ripestat.env, ...vrp.env, ...crtsh.env, ...profiles.env, ...whois.env, ...dns.env, INFRALENS_EXTRA_CA_FILE: caFile },
      close: () => closeAll(closers),
    }
  } catch (error) {
    await closeAll(closers)
    throw error
  }
}

async function closeAll(closers: Array<() => Promise<void> | void>): Promise<void> {
  for (const close of closers.reverse()) await close()
}
