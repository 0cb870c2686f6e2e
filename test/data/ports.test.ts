import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUNDLED_SERVICES, loadPortTable, parseServices } from '../../plugins/data/ports.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t.close())

const ports = async (query: string) => {
  const res = await t.json(`/api/data/ports${query}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

describe('services(5) parsing', () => {
  it('groups protocols per service and port, keeps aliases and the comment', () => {
    const rows = parseServices(
      [
        '# comment line',
        'domain\t\t53/tcp\t\t\t\t# Domain Name Server',
        'domain\t\t53/udp',
        'http\t\t80/tcp\t\twww\t\t# WorldWideWeb HTTP',
        'bad\t\t99999/tcp',
        'broken',
        'kerberos\t88/tcp\t\tkerberos5 krb5 kerberos-sec',
        'kerberos\t88/udp\t\tkerberos5 krb5 kerberos-sec',
        '',
      ].join('\n'),
    )
    expect(rows).toEqual([
      { service: 'http', port: 80, protocols: ['tcp'], aliases: ['www'], description: 'WorldWideWeb HTTP' },
      { service: 'domain', port: 53, protocols: ['tcp', 'udp'], aliases: [], description: 'Domain Name Server' },
      { service: 'kerberos', port: 88, protocols: ['tcp', 'udp'], aliases: ['kerberos5', 'krb5', 'kerberos-sec'], description: null },
    ].sort((a, b) => a.port - b.port))
  })

  it('uses the bundled netbase copy when the system has no /etc/services, and names it', () => {
    const table = loadPortTable('/nonexistent/services')
    expect(table.source).toMatchObject({ name: 'Debian netbase 6.4 /etc/services (bundled copy)', version: '6.4', licence: 'GPL-2.0' })
    expect(table.ports).toEqual(parseServices(readFileSync(BUNDLED_SERVICES, 'utf8')))
    expect(table.ports.find((p) => p.service === 'ssh')).toEqual({ service: 'ssh', port: 22, protocols: ['tcp'], aliases: [], description: 'SSH Remote Login Protocol' })
    expect(table.ports.length).toBeGreaterThan(250)
  })
})

describe('GET /api/data/ports', () => {
  it('lists the table with its source', async () => {
    const d = await ports('')
    expect(d.count).toBe(d.ports.length)
    expect(d.count).toBeGreaterThan(250)
    expect(d.source.name).toBe('/etc/services of this host')
    expect(d.ports.map((p: { port: number }) => p.port)).toEqual([...d.ports.map((p: { port: number }) => p.port)].sort((a, b) => a - b))
  })

  it('filters by port, service name or alias (any case), and protocol', async () => {
    expect((await ports('?port=22')).ports).toEqual([{ service: 'ssh', port: 22, protocols: ['tcp'], aliases: [], description: 'SSH Remote Login Protocol' }])
    expect((await ports('?port=53')).ports).toEqual([{ service: 'domain', port: 53, protocols: ['tcp', 'udp'], aliases: [], description: 'Domain Name Server' }])
    const www = await ports('?service=WWW')
    expect(www.ports.map((p: { service: string; port: number }) => `${p.service}/${p.port}`)).toEqual(['http/80'])
    expect((await ports('?service=https')).ports[0]).toMatchObject({ service: 'https', port: 443, protocols: expect.arrayContaining(['tcp']) })
    const udp53 = await ports('?port=53&protocol=UDP')
    expect(udp53.count).toBe(1)
    const none = await ports('?service=no-such-service')
    expect(none).toMatchObject({ count: 0, ports: [] })
    const ddp = await ports('?protocol=ddp')
    expect(ddp.ports.every((p: { protocols: string[] }) => p.protocols.includes('ddp'))).toBe(true)
    expect(ddp.count).toBeGreaterThan(0)
  })

  it.each([
    ['port=65536', 'port', 'must be at most 65535'],
    ['port=http', 'port', 'must be a whole number'],
    ['service=', 'service', 'must not be empty'],
    ['protocol=icmp', 'protocol', 'must be one of tcp, udp, sctp, ddp'],
  ])('%s is 400', async (query, param, message) => {
    const res = await t.json(`/api/data/ports?${query}`)
    expect(res.status).toBe(400)
    expect(res.body.error.details.param).toBe(param)
    expect(res.body.error.message).toContain(message)
  })

  it('sorts, pages, and is a CSV table', async () => {
    const page = await t.json('/api/data/ports?sort=service&limit=3')
    expect(page.body.data.ports).toHaveLength(3)
    expect(page.body.meta.pagination).toMatchObject({ limit: 3, offset: 0, total: page.body.data.count })
    const csv = (await (await t.request('/api/data/ports?port=53&format=csv&fields=ports')).text()).trim().split('\r\n')
    // Lists of plain values are JSON text in their cell.
    expect(csv).toEqual(['ports.service,ports.port,ports.protocols,ports.aliases,ports.description', 'domain,53,"[""tcp"",""udp""]",[],Domain Name Server'])
  })
})
