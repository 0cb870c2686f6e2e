import dgram from 'node:dgram'
import net from 'node:net'
import { describe, expect, it } from 'vitest'

describe('the test suite cannot leave the machine', () => {
  it('TCP to a public address throws before any packet', () => {
    expect(() => net.connect({ host: '93.184.215.14', port: 53 })).toThrow(/only use loopback/)
    expect(() => net.connect(53, '10.0.0.1')).toThrow(/only use loopback/)
  })
  it('UDP to a public address throws', () => {
    const s = dgram.createSocket('udp4')
    try {
      expect(() => s.send(Buffer.from('x'), 53, '93.184.215.14')).toThrow(/only use loopback/)
      expect(() => s.connect(53, '198.51.100.1')).toThrow(/only use loopback/)
    } finally {
      s.close()
    }
  })
  it('loopback still works', async () => {
    const server = net.createServer((c) => c.end('ok'))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as net.AddressInfo).port
    const text = await new Promise<string>((r) => net.connect(port, '127.0.0.1').on('data', (d) => r(String(d))))
    expect(text).toBe('ok')
    server.close()
  })
})
