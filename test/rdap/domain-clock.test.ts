import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDnsClient } from '../../runtime/net/dns/dns-client.ts'
import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import { createGuardedNetwork } from '../../runtime/net/guarded-network.ts'
import { domainAge } from '../../plugins/domain/domain-answers.ts'
import { domainIntelligence } from '../../plugins/domain/intelligence.ts'
import { createBootstrapStore } from '../../plugins/rdap/bootstrap-store.ts'
import { createRdapClient } from '../../plugins/rdap/rdap-client.ts'
import type { RegistrationClients } from '../../plugins/domain/registration.ts'
import { createWhoisClient } from '../../plugins/whois/whois-client.ts'
import type { FakeRdap } from '../support/fake-rdap.ts'
import { RDAP_ZONES, startFakeRdap } from '../support/fake-rdap.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'

// The domain answers take the time as an argument (the plugin passes the service's
// clock, ctx.clock): the same recorded
// google.com registration (expires 2028-09-14T04:00:00Z) read at different times.

let rdap: FakeRdap
let dns: LoopbackDns
let client: RegistrationClients
let resolver: DnsClient
beforeAll(async () => {
  rdap = await startFakeRdap()
  dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, ...RDAP_ZONES] })
  const network = createGuardedNetwork({ policy: { allowLoopback: true }, lookup: async () => [] })
  const bootstrap = createBootstrapStore({ network, baseUrl: rdap.bootstrapUrl, timeoutMs: 2000, log: pino({ level: 'silent' }), now: () => Date.now() })
  // .com has RDAP: the WHOIS client is there because the lookup needs one, and is never asked.
  client = { rdap: createRdapClient({ network, bootstrap, timeoutMs: 2000 }), whois: createWhoisClient({ network, iana: { host: '127.0.0.1', port: 9 }, timeoutMs: 500, now: () => Date.now() }) }
  const [host, port] = dns.env.INFRALENS_DNS_RESOLVERS!.split(':')
  resolver = createDnsClient({ servers: [{ host: host!, port: Number(port) }], timeoutMs: 500, retries: 0 })
})
afterAll(async () => {
  await dns.close()
  await rdap.close()
})

const EXPIRES = Date.parse('2028-09-14T04:00:00Z')
const DAY = 86_400_000
const codesAt = async (now: number) => (await domainIntelligence(client, resolver, 'google.com', now, AbortSignal.timeout(5000), () => {})).findings.map((f) => f.code)

describe('google.com at fixed times', () => {
  it('findings: nothing about expiry a year ahead, expiring_soon within 30 days, expired after', async () => {
    expect(await codesAt(Date.parse('2026-01-01T00:00:00Z'))).toEqual(['registry_lock', 'dnssec_signed'])
    expect(await codesAt(EXPIRES - 31 * DAY)).toEqual(['registry_lock', 'dnssec_signed'])
    expect(await codesAt(EXPIRES - 29 * DAY)).toEqual(['expiring_soon', 'registry_lock', 'dnssec_signed'])
    expect(await codesAt(EXPIRES + DAY)).toEqual(['expired', 'registry_lock', 'dnssec_signed'])
  })

  it('age: days and years since registration, days to expiry', async () => {
    const at = Date.parse('2026-01-01T00:00:00Z')
    expect(await domainAge(client, 'google.com', at)).toMatchObject({ age_days: 10334, age_years: 28.29, days_to_expiry: 987, expired: false })
    expect(await domainAge(client, 'google.com', EXPIRES)).toMatchObject({ days_to_expiry: 0, expired: true })
  })
})
