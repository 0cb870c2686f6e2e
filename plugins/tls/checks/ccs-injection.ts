import { converse, tlsRecord } from '../conversation.ts'
import { buildClientHello } from '../client-hello.ts'
import type { ProbeContext } from '../probe-context.ts'
import { pooledProbe } from '../probe-context.ts'
import { alertOf, ALERTS, CONTENT, HANDSHAKE, parseServerHello } from '../server-flight.ts'
import type { CheckResult, Legacy } from './check-result.ts'
import { notApplicable } from './check-result.ts'

// OpenSSL's early ChangeCipherSpec (CCS injection, CVE-2014-0224): before 1.0.1h
// OpenSSL accepted a ChangeCipherSpec before the key exchange and switched to
// keys made from an empty master secret. The check is the one testssl.sh and
// nmap's ssl-ccs-injection run: after the ServerHelloDone, send
// ChangeCipherSpec twice, with no ClientKeyExchange. A correct server refuses
// the first with unexpected_message; a vulnerable one takes it, then fails to
// decrypt the second (plaintext) record: bad_record_mac or decryption_failed.
// Both records go in one write, so the answer never waits on a timeout. No
// data is exchanged and nothing is decrypted.

export async function checkCcsInjection(ctx: ProbeContext, legacy: Legacy | null): Promise<CheckResult> {
  if (!legacy) return notApplicable('not_applicable', 'Only TLS 1.3 is accepted, where ChangeCipherSpec carries no meaning (RFC 8446 §5).')
  return pooledProbe(ctx, async () => {
    const talk = await converse(ctx.dial, ctx.signal, ctx.timeoutMs)
    try {
      talk.send(buildClientHello({ versions: [legacy.version], suites: legacy.suites, serverName: ctx.serverName }).record)
      const until = await talk.wait((r) => r.find(HANDSHAKE.serverHelloDone) !== undefined || r.alert !== null, ctx.timeoutMs)
      const helloMessage = talk.reader.find(HANDSHAKE.serverHello)
      if (until !== 'met' || !helloMessage || talk.reader.alert) {
        return { result: 'unknown', ok: null, evidence: `A ${legacy.name} hello did not get a full server flight (${talk.reader.alert ? `alert ${ALERTS[talk.reader.alert.description] ?? talk.reader.alert.description}` : until}).` }
      }
      const version = parseServerHello(helloMessage.body).version
      const ccs = tlsRecord(CONTENT.changeCipherSpec, version, Buffer.from([1]))
      talk.send(Buffer.concat([ccs, ccs]))
      const waited = await talk.wait((r) => r.alert !== null, ctx.timeoutMs)
      const alert = alertOf(talk.reader)
      if (alert) {
        const name = ALERTS[alert.description] ?? `alert ${alert.description}`
        if (alert.description === 20 || alert.description === 21) {
          return { result: 'vulnerable', ok: false, evidence: `Two ChangeCipherSpec records sent before any key exchange: the first was taken, the second answered with ${name} — the server had switched to keys it could not have (CVE-2014-0224).` }
        }
        return { result: 'not_vulnerable', ok: true, evidence: `A ChangeCipherSpec sent before any key exchange was refused with ${name}.` }
      }
      return {
        result: 'not_vulnerable',
        ok: true,
        evidence: waited === 'timeout' ? `Two early ChangeCipherSpec records got no answer within ${ctx.timeoutMs} ms; a vulnerable OpenSSL answers the second with bad_record_mac.` : 'Two early ChangeCipherSpec records were answered by closing the connection without an alert.',
      }
    } finally {
      talk.close()
    }
  })
}
