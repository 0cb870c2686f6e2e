// How the client gets its sockets. Kept to one small interface so tests can watch
// them, and so a layer could vet or limit them before any packet leaves; the service
// uses the default plain node sockets, since every DNS server it queries is an IP
// literal from its configuration (the resolvers), never an address a client supplied.
// Hosts are always IP literals: nothing here resolves names.

import dgram from 'node:dgram'
import net from 'node:net'

export interface DnsSocketFactory {
  /**
   * A new UDP socket of the family of the server's address. The client connects it to
   * the server (binding a fresh random source port) and closes it after the query.
   */
  udpSocket(family: 4 | 6): dgram.Socket
  /** A TCP connection being opened to the server; the client destroys it after the query. */
  tcpConnect(target: { host: string; port: number }): net.Socket
}

export const nodeDnsSockets: DnsSocketFactory = {
  udpSocket: (family) => dgram.createSocket(family === 6 ? 'udp6' : 'udp4'),
  tcpConnect: ({ host, port }) => net.connect({ host, port }),
}
