import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { FakeRdap } from '../support/fake-rdap.ts'
import { RDAP_ZONES, startFakeRdap } from '../support/fake-rdap.ts'
import type { FakeRipestat } from '../support/fake-ripestat.ts'
import { startFakeRipestat } from '../support/fake-ripestat.ts'
import type { FakeVrp } from '../support/fake-vrp.ts'
import { startFakeVrp, untilVrpsLoaded } from '../support/fake-vrp.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'

// The routing endpoints' world: loopback DNS, fake RDAP, fake RIPEstat, the fake
// VRP source, and the app pointed at them (cache off unless asked, so every
// request reaches the fakes).

export interface RoutingWorld {
  dns: LoopbackDns
  rdap: FakeRdap
  ripestat: FakeRipestat
  vrp: FakeVrp
  app: TestApp
  close(): Promise<void>
}

export async function startRoutingWorld(env: Record<string, string> = {}): Promise<RoutingWorld> {
  const dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, ...RDAP_ZONES] })
  const rdap = await startFakeRdap()
  const ripestat = await startFakeRipestat()
  const vrp = await startFakeVrp()
  const app = await startTestApp({
    ...dns.env,
    ...rdap.env,
    ...ripestat.env,
    ...vrp.env,
    INFRALENS_RATE_LIMITS: 'anonymous=100000',
    INFRALENS_CACHE_MAX_ENTRIES: '0',
    ...env,
  })
  await untilVrpsLoaded(app)
  return {
    dns,
    rdap,
    ripestat,
    vrp,
    app,
    async close() {
      await app.close()
      await vrp.close()
      await ripestat.close()
      await rdap.close()
      await dns.close()
    },
  }
}
