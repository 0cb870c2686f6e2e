import type { ProbeContext } from '../probe-context.ts'
import { pooledProbe } from '../probe-context.ts'
import type { CheckResult, Legacy } from './check-result.ts'
import { nodeVersion, notApplicable } from './check-result.ts'
import { nodeSession } from './node-session.ts'

// Client-initiated renegotiation (CVE-2011-1473: each renegotiation costs the
// server a full handshake, a cheap denial of service; without RFC 5746 it is
// also CVE-2009-3555): one full TLS <= 1.2 handshake with node:tls, then one
// renegotiation request. Accepted: the second handshake completes. Refused:
// OpenSSL servers answer with no_renegotiation, others close or stay silent.
// One attempt only: testssl.sh repeats it to tell a rate-limited server (Node
// allows three per ten minutes) from an open one; one is the question asked.

const SETTLE_MS = 1_500

export async function checkClientRenegotiation(ctx: ProbeContext, legacy: Legacy | null, secureRenegotiation: boolean | null): Promise<CheckResult> {
  if (!legacy) return notApplicable('not_applicable', 'Only TLS 1.3 is accepted, which has no renegotiation.')
  const maxVersion = nodeVersion(legacy.version)
  if (!maxVersion) return notApplicable('not_tested', `Renegotiation is tested over a full handshake, which this client cannot make on ${legacy.name}.`)
  return pooledProbe(ctx, async () => {
    let session
    try {
      session = await nodeSession({ dial: ctx.dial, serverName: ctx.serverName, signal: ctx.signal, timeoutMs: ctx.handshakeTimeoutMs, maxVersion })
    } catch (error) {
      return { result: 'unknown', ok: null, evidence: `A full ${legacy.name} handshake did not complete: ${firstLine(error)}.` }
    }
    try {
      const { socket } = session
      const outcome = await new Promise<{ accepted: boolean; why: string }>((resolve) => {
        const timer = setTimeout(() => resolve({ accepted: false, why: `no answer within ${SETTLE_MS} ms` }), Math.min(SETTLE_MS, ctx.handshakeTimeoutMs))
        const done = (value: { accepted: boolean; why: string }) => {
          clearTimeout(timer)
          resolve(value)
        }
        socket.once('error', (error) => done({ accepted: false, why: firstLine(error) }))
        socket.once('close', () => done({ accepted: false, why: 'the server closed the connection' }))
        const started = socket.renegotiate({ rejectUnauthorized: false }, (error) => done(error ? { accepted: false, why: firstLine(error) } : { accepted: true, why: 'the second handshake completed' }))
        if (!started) done({ accepted: false, why: 'this client could not start a renegotiation' })
      })
      const protocol = socket.getProtocol() ?? legacy.name
      if (outcome.accepted) {
        const insecure = secureRenegotiation === false
        return {
          result: insecure ? 'accepted_insecure' : 'accepted',
          ok: false,
          evidence: `After a full ${protocol} handshake, a client-initiated renegotiation was accepted: ${outcome.why}${insecure ? ', and the server does not implement RFC 5746 (insecure renegotiation)' : ''}.`,
        }
      }
      return { result: 'refused', ok: true, evidence: `After a full ${protocol} handshake, a client-initiated renegotiation was refused: ${outcome.why}.` }
    } finally {
      await session.close()
    }
  })
}

export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const line = message.split('\n')[0] ?? message
  // OpenSSL's "808C...:error:0A000153:SSL routines:ssl3_read_bytes:no renegotiation:../deps/..." -> its reason.
  const ssl = /:SSL routines:[^:]*:([^:]+)/.exec(line)
  return ssl ? ssl[1]!.trim() : line
}
