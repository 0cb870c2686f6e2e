import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { NotFoundError, UpstreamError } from '../../runtime/errors.ts'
import { createGuardedNetwork } from '../../runtime/net/guarded-network.ts'
import { createBootstrapStore } from '../../plugins/rdap/bootstrap-store.ts'
import { normalizeEntity, normalizeNameserverObject } from '../../plugins/rdap/normalize-entity.ts'
import type { RdapClient } from '../../plugins/rdap/rdap-client.ts'
import { createRdapClient } from '../../plugins/rdap/rdap-client.ts'
import type { FakeRdap } from '../support/fake-rdap.ts'
import { startFakeRdap } from '../support/fake-rdap.ts'

// The client on its own (as other plugins use it), against the fake over real
// sockets: entity and name server objects by URL, the recorded 404 bodies, the
// bootstrap lookup, deadlines and cancellation.

let rdap: FakeRdap
let client: RdapClient
beforeAll(async () => {
  rdap = await startFakeRdap()
  // The fake is an IP literal: no name is ever looked up.
  const network = createGuardedNetwork({ policy: { allowLoopback: true }, lookup: async () => [] })
  const bootstrap = createBootstrapStore({ network, baseUrl: rdap.bootstrapUrl, timeoutMs: 1000, log: pino({ level: 'silent' }), now: () => Date.now() })
  client = createRdapClient({ network, bootstrap, timeoutMs: 300 })
})
afterAll(async () => {
  await rdap.close()
})
beforeEach(() => rdap.setFault(null))

describe('objects by URL', () => {
  it('entity GOVI at ARIN', async () => {
    const doc = await client.fetch(`${rdap.origin}/rdap.arin.net/registry/entity/GOVI`, 'entity GOVI')
    expect(doc.url).toBe(`${rdap.origin}/rdap.arin.net/registry/entity/GOVI`)
    const e = normalizeEntity(doc.body)
    expect(e.contact).toMatchObject({ handle: 'GOVI', name: 'Govital Internet Inc.' })
    expect(e.autnums[0]!.handle).toBe('AS393996')
  })

  it('entity CLUE1-RIPE at RIPE', async () => {
    const e = normalizeEntity((await client.fetch(`${rdap.origin}/rdap.db.ripe.net/entity/CLUE1-RIPE`, 'entity CLUE1-RIPE')).body)
    expect(e.contact).toMatchObject({ handle: 'CLUE1-RIPE', kind: 'group' })
    expect(e.port43).toBe('whois.ripe.net')
  })

  it('name server ns2.pipni.cz at CZ.NIC', async () => {
    const n = normalizeNameserverObject((await client.fetch(`${rdap.origin}/rdap.nic.cz/nameserver/ns2.pipni.cz`, 'name server')).body)
    expect(n).toMatchObject({ name: 'ns2.pipni.cz', object_class: 'nameserver' })
  })

  it('the recorded 404 bodies (error_404_apnic.json, error_404_ripe.json) become not_found with the RDAP error', async () => {
    const apnic = await client.fetch(`${rdap.origin}/rdap.apnic.net/entity/AS5496JP`, 'entity AS5496JP').catch((e: unknown) => e)
    expect(apnic).toBeInstanceOf(NotFoundError)
    expect((apnic as NotFoundError).details).toMatchObject({
      upstream: 'rdap',
      status: 404,
      rdap_error: { title: 'Not Found', description: ['The server has not found anything matching the Request-URI.', 'The syntax used for this request is invalid for this particular server.'] },
    })
    const ripe = await client.fetch(`${rdap.origin}/rdap.db.ripe.net/entity/JNIC1-AP`, 'entity JNIC1-AP').catch((e: unknown) => e)
    expect((ripe as NotFoundError).details).toMatchObject({ status: 404, rdap_error: { title: 'not found', description: [] } })
  })
})

describe('bootstrap lookup through the client', () => {
  it('names the service, rewritten to the fake, and where the table came from', async () => {
    const { match, source } = await client.serviceFor('asn', 37271)
    expect(match).toMatchObject({ entry: '36864-37887', base_url: `${rdap.origin}/rdap.afrinic.net/rdap/` })
    expect(source).toMatchObject({ kind: 'asn', origin: 'live', publication: '2024-04-10T20:00:01Z', url: `${rdap.bootstrapUrl}asn.json` })
    expect((await client.serviceFor('ipv6', '2a00:1450::1')).match?.entry).toBe('2a00::/12')
    expect((await client.serviceFor('dns', 'nope.example')).match).toBeNull()
  })

  it('domain, ip, autnum through the client', async () => {
    expect((await client.domain('norway.no')).object.handle).toBe('NOR34044D-NORID')
    expect((await client.ip('2001:4860::1')).object.name).toBe('GOOGLE-IPV6')
    expect((await client.autnum(9269)).object.country).toBe('HK')
  })
})

describe('deadlines and cancellation', () => {
  it('a black-holed registry fails after the client timeout with reason timeout', async () => {
    rdap.setFault({ kind: 'timeout' })
    const started = Date.now()
    const error = await client.autnum(13335).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UpstreamError)
    expect((error as UpstreamError).details).toMatchObject({ upstream: 'rdap', reason: 'timeout' })
    expect(Date.now() - started).toBeLessThan(1500)
  })

  it('the caller\'s signal cancels a query', async () => {
    rdap.setFault({ kind: 'timeout' })
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('client went away')), 50)
    const started = Date.now()
    const error = await client.ip('1.1.1.1', controller.signal).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UpstreamError)
    expect(Date.now() - started).toBeLessThan(280)
  })
})
