// The loopback authoritative DNS server of the test internet: serves master-file
// zones over UDP and TCP on one port of a 127.0.0.x (or ::1) address, logs every
// query, and misbehaves on demand (drop, delay, SERVFAIL/REFUSED/NOTIMP, forced
// truncation, wrong id or question, garbage, TCP reset, reply from another port) so
// each failure path of a DNS client can be exercised. With `validating` it also plays
// a validating recursive resolver's part in the AD flag (see DnsServerOptions).

import { randomBytes } from 'node:crypto'
import dgram from 'node:dgram'
import net from 'node:net'
import { FLAG_AA, FLAG_AD, FLAG_CD, FLAG_QR, FLAG_RD, FLAG_TC, readHeader, readMessage, readQuestions, TYPE_OPT } from '../../runtime/net/dns/dns-message.ts'
import { lowercaseWire, nameToText } from '../../runtime/net/dns/dns-name.ts'
import { className, typeName, type DnsClass, type DnsTypeMnemonic } from '../../runtime/net/dns/dns-types.ts'
import { answerFromZones, RCODE } from './dns-authority.ts'
import { encodeReply, type ReplyOpt } from './dns-reply-wire.ts'
import { buildZone, isAtOrBelow, type Zone } from './dns-zone.ts'
import { loadZone } from './zone-file.ts'

export interface DnsFaultScope {
  /** Only queries for this name or below it. */
  name?: string
  /** Only this transport (truncate and wrong-source are UDP-only, tcp-reset TCP-only anyway). */
  transport?: 'udp' | 'tcp'
  /** Apply to this many matching queries, then disappear. */
  times?: number
}

export type DnsFault = DnsFaultScope &
  (
    | { kind: 'drop' }
    | { kind: 'delay'; ms: number }
    | { kind: 'servfail' }
    | { kind: 'refused' }
    | { kind: 'notimp' }
    /** TC with empty sections over UDP; the real answer over TCP. */
    | { kind: 'truncate' }
    | { kind: 'mismatched-id'; thenAnswer?: boolean }
    | { kind: 'wrong-question'; part?: 'name' | 'type' | 'class'; thenAnswer?: boolean }
    /** Echo the question with its letters' case flipped: a client must still accept it. */
    | { kind: 'recase-question' }
    | { kind: 'garbage'; bytes?: number }
    | { kind: 'tcp-reset' }
    /** The real answer, but sent from another UDP port of the same host. */
    | { kind: 'wrong-source'; thenAnswer?: boolean }
    /** A server from before EDNS (RFC 6891): a query with an OPT record gets FORMERR without one; plain queries are answered. */
    | { kind: 'no-edns' }
  )

export type DnsFaultKind = DnsFault['kind']
type SimpleFaultKind = Exclude<DnsFaultKind, 'delay'>

export interface DnsQueryLogEntry {
  transport: 'udp' | 'tcp'
  id: number
  name: string
  type: DnsTypeMnemonic
  class: DnsClass
  from: { address: string; port: number }
  rd: boolean
  /** The query's AD bit ("tell me whether you validated this", RFC 6840 §5.7). */
  ad: boolean
  cd: boolean
  /** The EDNS UDP payload size the client advertised; null without EDNS. */
  udpPayloadSize: number | null
  dnssecOk: boolean
  fault: DnsFaultKind | null
}

export type ZoneSource = string | { text?: string; path?: string; origin?: string }

export interface DnsServerOptions {
  /** 127.0.0.0/8 or ::1 only. Default 127.0.0.1. */
  host?: string
  /** Default 0: a free port, the same for UDP and TCP. */
  port?: number
  /** Master-file texts or paths. */
  zones: ZoneSource[]
  /**
   * Answer like a validating resolver whose every answer validated: AD set on NOERROR
   * and NXDOMAIN replies, but only when the query had AD or DO (RFC 6840 §5.7), as
   * 1.1.1.1, 8.8.8.8 and Unbound do. Default false: AD never set.
   */
  validating?: boolean
}

export interface TestDnsServer {
  host: string
  port: number
  zones: Zone[]
  log: DnsQueryLogEntry[]
  setFault(fault: DnsFault | DnsFault[] | SimpleFaultKind | null): void
  /** Switch the `validating` behaviour for the queries that follow. */
  setValidating(on: boolean): void
  close(): Promise<void>
}

type Output = { kind: 'send'; bytes: Buffer; otherPort?: boolean } | { kind: 'reset' } | { kind: 'end' }

function assertLoopback(host: string): void {
  if (host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return
  throw new Error(`the test DNS server only listens on loopback, not ${host}`)
}

function zoneFrom(source: ZoneSource): Zone {
  if (typeof source === 'string') return buildZone(loadZone(source))
  const options = source.origin ? { origin: source.origin } : {}
  if (source.text !== undefined) return buildZone(loadZone(source.text.includes('\n') ? source.text : `${source.text}\n`, options))
  if (source.path !== undefined) return buildZone(loadZone(source.path, options))
  throw new Error('a zone source needs text or path')
}

function flipCase(wire: Buffer): Buffer {
  const out = Buffer.from(wire)
  for (let i = 0; i < out.length; i++) {
    const b = out[i] as number
    if ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)) out[i] = b ^ 0x20
  }
  return out
}

function implicitTransport(kind: DnsFaultKind): 'udp' | 'tcp' | undefined {
  if (kind === 'truncate' || kind === 'wrong-source') return 'udp'
  if (kind === 'tcp-reset') return 'tcp'
  return undefined
}

async function bindBoth(host: string, port: number): Promise<{ udp: dgram.Socket; tcp: net.Server }> {
  const family = host.includes(':') ? 'udp6' : 'udp4'
  // Port 0 gives the UDP socket a free port; TCP then tries the same number, which
  // another process may hold, so a clash just means trying a new UDP port.
  for (let attempt = 0; attempt < 50; attempt++) {
    const udp = dgram.createSocket(family)
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject)
      udp.bind(port, host, () => {
        udp.off('error', reject)
        resolve()
      })
    })
    const udpPort = udp.address().port
    const tcp = net.createServer()
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject)
        tcp.listen(udpPort, host, () => {
          tcp.off('error', reject)
          resolve()
        })
      })
      return { udp, tcp }
    } catch (error) {
      await new Promise<void>((resolve) => udp.close(() => resolve()))
      if (port !== 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
    }
  }
  throw new Error(`no port free for both UDP and TCP on ${host}`)
}

export async function startDnsServer(options: DnsServerOptions): Promise<TestDnsServer> {
  const host = options.host ?? '127.0.0.1'
  assertLoopback(host)
  const zones = options.zones.map(zoneFrom)
  const { udp, tcp } = await bindBoth(host, options.port ?? 0)
  const port = udp.address().port
  const otherPort = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4')
  await new Promise<void>((resolve) => otherPort.bind(0, host, () => resolve()))

  const log: DnsQueryLogEntry[] = []
  let faults: DnsFault[] = []
  let validating = options.validating === true
  const timers = new Set<NodeJS.Timeout>()
  const connections = new Set<net.Socket>()

  function takeFault(key: string, transport: 'udp' | 'tcp'): DnsFault | undefined {
    const fault = faults.find((f) => {
      const only = f.transport ?? implicitTransport(f.kind)
      if (only && only !== transport) return false
      return f.name === undefined || isAtOrBelow(key, f.name.toLowerCase().replace(/\.$/, '') || '.')
    })
    if (fault?.times !== undefined) {
      fault.times--
      if (fault.times <= 0) faults = faults.filter((f) => f !== fault)
    }
    return fault
  }

  function handle(query: Buffer, transport: 'udp' | 'tcp', from: { address: string; port: number }): { outputs: Output[]; delayMs: number } {
    const none = { outputs: [], delayMs: 0 }
    let header
    try {
      header = readHeader(query)
    } catch {
      return none
    }
    if (header.qr) return none
    const flagsBase = FLAG_QR | (header.flags & (FLAG_RD | FLAG_CD)) | (header.opcode << 11)
    const formerr = (): { outputs: Output[]; delayMs: number } => ({
      outputs: [{ kind: 'send', bytes: encodeReply({ id: header.id, flags: flagsBase, rcode: RCODE.FORMERR, question: null, answers: [], authorities: [], additionals: [], opt: null }) }],
      delayMs: 0,
    })
    let parsed
    let questionEnd
    try {
      parsed = readMessage(query)
      questionEnd = readQuestions(query).end
    } catch {
      return formerr()
    }
    const q = parsed.questions[0]
    if (parsed.questions.length !== 1 || !q) return formerr()
    const question = query.subarray(12, questionEnd)
    const optRR = parsed.additionals.find((rr) => rr.typeCode === TYPE_OPT)
    const edns = optRR ? { size: Math.max(512, optRR.classCode), version: (optRR.ttl >>> 16) & 0xff, dnssecOk: (optRR.ttl & 0x8000) !== 0 } : null
    const key = nameToText(lowercaseWire(q.nameWire))
    const fault = takeFault(key, transport)
    log.push({
      transport,
      id: header.id,
      name: nameToText(q.nameWire),
      type: typeName(q.typeCode),
      class: className(q.classCode),
      from,
      rd: header.rd,
      ad: header.ad,
      cd: header.cd,
      udpPayloadSize: edns ? (optRR as { classCode: number }).classCode : null,
      dnssecOk: edns?.dnssecOk ?? false,
      fault: fault?.kind ?? null,
    })

    const opt: ReplyOpt | null = edns ? { udpPayloadSize: 1232, extendedRcode: 0, dnssecOk: edns.dnssecOk } : null
    const bare = (rcode: number, extra = 0, questionBytes: Buffer = question, id = header.id): Buffer =>
      encodeReply({ id, flags: flagsBase | extra, rcode, question: questionBytes, answers: [], authorities: [], additionals: [], opt })

    const limit = transport === 'tcp' ? 0xffff : edns ? edns.size : 512
    // Replies that do not fit are sent as header, question and OPT with TC set (RFC 2181 §9).
    const fit = (full: Buffer, id: number, questionBytes: Buffer): Buffer => {
      if (full.length <= limit) return full
      const flags = full.readUInt16BE(2)
      return bare(flags & 0xf, FLAG_TC | (flags & FLAG_AA), questionBytes, id)
    }

    let normal: Buffer
    const decoys: Buffer[] = []
    if (header.opcode !== 0) normal = bare(RCODE.NOTIMP)
    else if (edns && edns.version > 0) {
      // BADVERS (16): header RCODE 0, the upper bits 1 in the OPT record (RFC 6891 §6.1.3).
      normal = encodeReply({ id: header.id, flags: flagsBase, rcode: 0, question, answers: [], authorities: [], additionals: [], opt: { ...(opt as ReplyOpt), extendedRcode: 1 } })
    } else {
      const result = answerFromZones(zones, q, edns?.dnssecOk ?? false)
      const askedForAd = header.ad || (edns?.dnssecOk ?? false)
      const secure = validating && askedForAd && (result.rcode === RCODE.NOERROR || result.rcode === RCODE.NXDOMAIN)
      const build = (id: number, questionBytes: Buffer): Buffer =>
        fit(
          encodeReply({
            id,
            flags: flagsBase | (result.aa ? FLAG_AA : 0) | (secure ? FLAG_AD : 0),
            rcode: result.rcode,
            question: questionBytes,
            answers: result.answers,
            authorities: result.authorities,
            additionals: result.additionals,
            opt,
          }),
          id,
          questionBytes,
        )
      normal = build(header.id, question)
      if (fault?.kind === 'mismatched-id') decoys.push(build((header.id + 1) & 0xffff, question))
      if (fault?.kind === 'wrong-question' || fault?.kind === 'recase-question') {
        const name = q.nameWire
        const tail = Buffer.from(question.subarray(name.length))
        let altered: Buffer
        if (fault.kind === 'recase-question') altered = Buffer.concat([flipCase(name), tail])
        else if (fault.part === 'type') {
          tail.writeUInt16BE(q.typeCode === 16 ? 1 : 16, 0)
          altered = Buffer.concat([name, tail])
        } else if (fault.part === 'class') {
          tail.writeUInt16BE(3, 2)
          altered = Buffer.concat([name, tail])
        } else altered = Buffer.concat([Buffer.from([5]), Buffer.from('wrong'), name, tail])
        if (fault.kind === 'recase-question') normal = build(header.id, altered)
        else decoys.push(build(header.id, altered))
      }
    }

    const send = (bytes: Buffer, otherPort = false): Output => ({ kind: 'send', bytes, otherPort })
    switch (fault?.kind) {
      case undefined:
      case 'recase-question':
        return { outputs: [send(normal)], delayMs: 0 }
      case 'drop':
        return none
      case 'delay':
        return { outputs: [send(normal)], delayMs: fault.ms }
      case 'servfail':
        return { outputs: [send(bare(RCODE.SERVFAIL))], delayMs: 0 }
      case 'refused':
        return { outputs: [send(bare(RCODE.REFUSED))], delayMs: 0 }
      case 'notimp':
        return { outputs: [send(bare(RCODE.NOTIMP))], delayMs: 0 }
      case 'truncate':
        return { outputs: [send(bare(RCODE.NOERROR, FLAG_TC | FLAG_AA))], delayMs: 0 }
      case 'mismatched-id':
      case 'wrong-question':
        return { outputs: [...decoys.map((d) => send(d)), ...(fault.thenAnswer ? [send(normal)] : [])], delayMs: 0 }
      case 'garbage': {
        const bytes = randomBytes(Math.max(12, fault.bytes ?? 48))
        // Random, except that it can never parse as a message: QR clear, 65535 questions.
        bytes[2] = (bytes[2] as number) & 0x7f
        bytes.writeUInt16BE(0xffff, 4)
        return { outputs: transport === 'tcp' ? [send(bytes), { kind: 'end' }] : [send(bytes)], delayMs: 0 }
      }
      case 'tcp-reset':
        return { outputs: [{ kind: 'reset' }], delayMs: 0 }
      case 'wrong-source':
        return { outputs: fault.thenAnswer ? [send(normal, true), send(normal)] : [send(normal, true)], delayMs: 0 }
      case 'no-edns':
        // The question echoed, no OPT: what BIND 8 and other pre-EDNS servers send.
        return { outputs: [send(edns ? encodeReply({ id: header.id, flags: flagsBase, rcode: RCODE.FORMERR, question, answers: [], authorities: [], additionals: [], opt: null }) : normal)], delayMs: 0 }
    }
  }

  function later(delayMs: number, fn: () => void): void {
    if (delayMs <= 0) return fn()
    const timer = setTimeout(() => {
      timers.delete(timer)
      fn()
    }, delayMs)
    timers.add(timer)
  }

  udp.on('message', (message, rinfo) => {
    const from = { address: rinfo.address, port: rinfo.port }
    const { outputs, delayMs } = handle(message, 'udp', from)
    later(delayMs, () => {
      for (const out of outputs) {
        if (out.kind !== 'send') continue
        ;(out.otherPort ? otherPort : udp).send(out.bytes, rinfo.port, rinfo.address)
      }
    })
  })
  udp.on('error', () => {})

  tcp.on('connection', (socket) => {
    connections.add(socket)
    socket.on('close', () => connections.delete(socket))
    socket.on('error', () => {})
    const from = { address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0 }
    let pending: Buffer = Buffer.alloc(0)
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 2) {
        const length = pending.readUInt16BE(0)
        if (pending.length < 2 + length) return
        const query = pending.subarray(2, 2 + length)
        pending = pending.subarray(2 + length)
        const { outputs, delayMs } = handle(query, 'tcp', from)
        later(delayMs, () => {
          for (const out of outputs) {
            if (socket.destroyed) return
            if (out.kind === 'reset') socket.resetAndDestroy()
            else if (out.kind === 'end') socket.end()
            else {
              const frame = Buffer.alloc(2)
              frame.writeUInt16BE(out.bytes.length)
              socket.write(Buffer.concat([frame, out.bytes]))
            }
          }
        })
      }
    })
  })

  return {
    host,
    port,
    zones,
    log,
    setFault(fault) {
      if (fault === null) faults = []
      else if (typeof fault === 'string') faults = [{ kind: fault } as DnsFault]
      else faults = (Array.isArray(fault) ? fault : [fault]).map((f) => ({ ...f }))
    },
    setValidating(on) {
      validating = on
    },
    async close() {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      for (const socket of connections) socket.destroy()
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => otherPort.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ])
    },
  }
}
