import { randomBytes } from 'node:crypto'
import { tlsRecord } from '../conversation.ts'
import { converse } from '../conversation.ts'
import { buildClientHello } from '../client-hello.ts'
import type { ProbeContext } from '../probe-context.ts'
import { pooledProbe } from '../probe-context.ts'
import { CONTENT, HANDSHAKE, parseServerHello } from '../server-flight.ts'
import type { CheckResult, Legacy } from './check-result.ts'
import { notApplicable } from './check-result.ts'

// The heartbeat extension (RFC 6520) and Heartbleed (CVE-2014-0160), without
// reading a byte of the server's memory.
//
// testssl.sh sends a heartbeat request claiming a 16384-byte payload with none
// at all, and a vulnerable server answers with 16 KB of its memory: that is the
// exploit, run for real. We send two requests instead, in one write, after the
// ServerHelloDone and before any key exchange (where vulnerable OpenSSL answers
// heartbeats, as testssl.sh relies on too):
//   A  payload_length = 16 + n, followed by n payload bytes and 16 padding bytes.
//      RFC 6520 §4: payload_length + 3 + 16 (padding) must fit the record, and
//      here it does not, so a correct server discards A silently. A vulnerable
//      one copies payload_length bytes starting at the payload — our n bytes and
//      our own 16 padding bytes, all inside the record we sent — and echoes
//      them: the overread ends inside our record, so nothing of the server's
//      memory can come back.
//   B  a well-formed request. Every server with the extension answers it, so
//      the first heartbeat response tells the two apart without waiting for a
//      timeout: A's bytes first means vulnerable, B's means not.
// A response's payload is compared with what we sent; it is never kept.

const N = 16

function heartbeatRequest(version: number, payload: Buffer, claimed: number): Buffer {
  const padding = randomBytes(16)
  const message = Buffer.concat([Buffer.from([1, claimed >> 8, claimed & 0xff]), payload, padding])
  return tlsRecord(CONTENT.heartbeat, version, message)
}

export interface HeartbeatChecks {
  heartbeat: CheckResult
  heartbleed: CheckResult
}

export async function checkHeartbeat(ctx: ProbeContext, legacy: Legacy | null): Promise<HeartbeatChecks> {
  if (!legacy) {
    const na = notApplicable('not_applicable', 'Only TLS 1.3 is accepted; the heartbeat extension is not defined for TLS 1.3 handshakes that servers use.')
    return { heartbeat: na, heartbleed: na }
  }
  return pooledProbe(ctx, async () => {
    const talk = await converse(ctx.dial, ctx.signal, ctx.timeoutMs)
    try {
      talk.send(buildClientHello({ versions: [legacy.version], suites: legacy.suites, serverName: ctx.serverName, heartbeat: true }).record)
      const until = await talk.wait((r) => r.find(HANDSHAKE.serverHelloDone) !== undefined || r.alert !== null, ctx.timeoutMs)
      const helloMessage = talk.reader.find(HANDSHAKE.serverHello)
      if (until !== 'met' || !helloMessage || !talk.reader.find(HANDSHAKE.serverHelloDone)) {
        const why = talk.reader.alert ? `alert ${talk.reader.alert.description}` : until === 'timeout' ? 'no complete answer in time' : 'a hang-up'
        const unknown: CheckResult = { result: 'unknown', ok: null, evidence: `A ${legacy.name} hello with the heartbeat extension got ${why}.` }
        return { heartbeat: unknown, heartbleed: unknown }
      }
      const hello = parseServerHello(helloMessage.body)
      const mode = hello.extensions.get(15)
      if (!mode) {
        const off: CheckResult = { result: 'not_offered', ok: true, evidence: `The ${legacy.name} ServerHello did not acknowledge the heartbeat extension (15) the hello offered.` }
        return { heartbeat: off, heartbleed: { result: 'not_vulnerable', ok: true, evidence: 'The server does not offer the heartbeat extension, so no heartbeat was sent.' } }
      }
      const heartbeat: CheckResult = { result: 'offered', ok: true, evidence: `The ${legacy.name} ServerHello acknowledged the heartbeat extension (15, mode ${mode[0] ?? '?'}).` }
      const overlong = randomBytes(N)
      const wellFormed = randomBytes(N)
      let answer: 'overlong' | 'well_formed' | 'other' | null = null
      talk.reader.onHeartbeat = (record) => {
        if (answer || record.length < 3 || record[0] !== 2) return
        const echoed = record.subarray(3, 3 + N)
        answer = echoed.equals(overlong) ? 'overlong' : echoed.equals(wellFormed) ? 'well_formed' : 'other'
      }
      talk.send(Buffer.concat([heartbeatRequest(hello.version, overlong, N + 16), heartbeatRequest(hello.version, wellFormed, N)]))
      const waited = await talk.wait(() => answer !== null, ctx.timeoutMs)
      const seen: string | null = answer
      if (seen === 'overlong') {
        return { heartbeat, heartbleed: { result: 'vulnerable', ok: false, evidence: `A heartbeat request whose payload_length (${N + 16}) leaves no room for the 16 padding bytes RFC 6520 requires was answered, echoing our own ${N + 16} bytes: the server does not check the length (only bytes of our record could come back).` } }
      }
      if (seen === 'well_formed') {
        return { heartbeat, heartbleed: { result: 'not_vulnerable', ok: true, evidence: 'The over-long heartbeat request was discarded and the well-formed one sent after it was answered, as RFC 6520 requires.' } }
      }
      const why = seen === 'other' ? 'answered with a heartbeat response that echoes neither request' : waited === 'timeout' ? `not answered within ${ctx.timeoutMs} ms (some servers answer heartbeats only after the handshake)` : 'answered by closing the connection'
      return { heartbeat, heartbleed: { result: 'not_vulnerable', ok: true, evidence: `Both heartbeat requests were ${why}; a vulnerable OpenSSL answers the over-long one.` } }
    } finally {
      talk.close()
    }
  })
}
