import { constants } from 'node:crypto'
import type { ProbeContext } from '../probe-context.ts'
import { pooledProbe } from '../probe-context.ts'
import type { CheckResult, Legacy } from './check-result.ts'
import { nodeVersion, notApplicable } from './check-result.ts'
import { firstLine } from './client-renegotiation.ts'
import type { NodeSession } from './node-session.ts'
import { nodeSession } from './node-session.ts'
import { readTickets } from './session-tickets.ts'
import type { TicketsSeen } from './session-tickets.ts'

// Session resumption (RFC 5246 §7.3 by session id, RFC 5077 / RFC 8446 §2.2 by
// ticket) and TLS 1.3 early data (RFC 8446 §4.2.10), with node:tls: a full
// handshake, its session kept, and a second handshake offering it; node:tls
// says whether the server took it (isSessionReused). By id: TLS <= 1.2 with
// tickets turned off on our side, so only the server's session cache can
// resume. By ticket: on the highest version (TLS 1.3 tickets are the only
// resumption it has). Early data: the TLS 1.3 tickets are read off the wire
// (session-tickets.ts); a ticket whose early_data extension allows bytes means
// the server takes 0-RTT data, which an attacker can replay.

const TICKET_WAIT_MS = 1_000

export interface ResumptionChecks {
  session_id: CheckResult
  session_ticket: CheckResult
  early_data: CheckResult
}

interface Resumed {
  resumed: boolean
  first: { ticket: boolean; tickets: TicketsSeen | null; protocol: string }
}

async function sessionFrom(first: NodeSession, tls13: boolean): Promise<{ session: Buffer | undefined; tickets: TicketsSeen | null }> {
  const { socket } = first
  if (!tls13) return { session: socket.getSession(), tickets: null }
  // TLS 1.3 tickets come after the handshake (OpenSSL sends two at once).
  const session = await first.nextSession(TICKET_WAIT_MS)
  return { session, tickets: readTickets(first.received(), first.keylog, socket.getCipher().standardName) }
}

async function resumeTwice(ctx: ProbeContext, maxVersion: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3', byId: boolean): Promise<Resumed | string> {
  const base = { dial: ctx.dial, serverName: ctx.serverName, signal: ctx.signal, timeoutMs: ctx.handshakeTimeoutMs, maxVersion, minVersion: maxVersion, ...(byId ? { secureOptions: constants.SSL_OP_NO_TICKET } : {}) }
  let first: NodeSession
  try {
    first = await nodeSession(base)
  } catch (error) {
    return `a full ${maxVersion} handshake did not complete: ${firstLine(error)}`
  }
  let taken: { session: Buffer | undefined; tickets: TicketsSeen | null }
  const ticket = first.socket.getTLSTicket() !== undefined
  const protocol = first.socket.getProtocol() ?? maxVersion
  try {
    taken = await sessionFrom(first, maxVersion === 'TLSv1.3')
  } finally {
    // Closed, and its per-target slot free, before the second connection opens.
    await first.close()
  }
  if (!taken.session) return { resumed: false, first: { ticket, tickets: taken.tickets, protocol } }
  let second: NodeSession
  try {
    second = await nodeSession({ ...base, session: taken.session })
  } catch (error) {
    return `the resuming ${maxVersion} handshake did not complete: ${firstLine(error)}`
  }
  const resumed = second.socket.isSessionReused()
  await second.close()
  return { resumed, first: { ticket: ticket || (taken.tickets?.tickets.length ?? 0) > 0, tickets: taken.tickets, protocol } }
}

export async function checkResumption(ctx: ProbeContext, legacy: Legacy | null, tls13: boolean): Promise<ResumptionChecks> {
  const idVersion = legacy ? nodeVersion(legacy.version) : null
  const byId: Promise<CheckResult> = idVersion
    ? pooledProbe(ctx, () => resumeTwice(ctx, idVersion, true)).then((r): CheckResult => {
        if (typeof r === 'string') return { result: 'unknown', ok: null, evidence: `${r}.` }
        return r.resumed
          ? { result: 'supported', ok: true, evidence: `A second ${r.first.protocol} handshake offering the first one's session id (no ticket) was resumed (abbreviated handshake).` }
          : { result: 'not_supported', ok: true, evidence: `A second ${r.first.protocol} handshake offering the first one's session id (no ticket) got a full handshake.` }
      })
    : Promise.resolve(notApplicable('not_applicable', legacy ? `Resumption is tested with full handshakes, which this client cannot make on ${legacy.name}.` : 'Only TLS 1.3 is accepted, which resumes by ticket (PSK) only.'))
  const ticketVersion = tls13 ? 'TLSv1.3' : idVersion
  const byTicket: Promise<{ ticket: CheckResult; early: CheckResult }> = ticketVersion
    ? pooledProbe(ctx, () => resumeTwice(ctx, ticketVersion, false)).then((r) => {
        if (typeof r === 'string') {
          const unknown: CheckResult = { result: 'unknown', ok: null, evidence: `${r}.` }
          return { ticket: unknown, early: tls13 ? unknown : notApplicable('not_applicable', 'TLS 1.3 is not accepted; early data exists only in TLS 1.3.') }
        }
        const issued = r.first.tickets
        const lifetimes = issued && issued.tickets.length ? ` (${issued.tickets.length} NewSessionTicket message${issued.tickets.length > 1 ? 's' : ''}, lifetime ${issued.tickets.map((t) => `${t.lifetime_s} s`).join(', ')})` : ''
        const ticket: CheckResult = !r.first.ticket
          ? { result: 'not_issued', ok: true, evidence: `A full ${r.first.protocol} handshake got no session ticket.` }
          : r.resumed
            ? { result: 'supported', ok: true, evidence: `The server issued a ticket on ${r.first.protocol}${lifetimes} and resumed a second handshake that offered it.` }
            : { result: 'not_resumed', ok: true, evidence: `The server issued a ticket on ${r.first.protocol}${lifetimes} but answered a second handshake offering it with a full handshake.` }
        return { ticket, early: earlyData(tls13, issued) }
      })
    : Promise.resolve({
        ticket: notApplicable('not_tested', legacy ? `Resumption is tested with full handshakes, which this client cannot make on ${legacy.name}.` : 'No protocol version to test on.'),
        early: notApplicable('not_applicable', 'TLS 1.3 is not accepted; early data exists only in TLS 1.3.'),
      })
  const [session_id, tickets] = await Promise.all([byId, byTicket])
  return { session_id, session_ticket: tickets.ticket, early_data: tickets.early }
}

function earlyData(tls13: boolean, seen: TicketsSeen | null): CheckResult {
  if (!tls13) return notApplicable('not_applicable', 'TLS 1.3 is not accepted; early data exists only in TLS 1.3.')
  if (!seen) return { result: 'unknown', ok: null, evidence: 'The TLS 1.3 session tickets could not be read.' }
  if (seen.error) return { result: 'unknown', ok: null, evidence: `The TLS 1.3 session tickets could not be read: ${seen.error}.` }
  if (seen.tickets.length === 0) return { result: 'not_offered', ok: true, evidence: 'The server issued no TLS 1.3 session ticket, so no early data can be sent.' }
  const early = seen.tickets.filter((t) => t.max_early_data !== null && t.max_early_data > 0)
  if (early.length === 0) return { result: 'not_offered', ok: true, evidence: `None of the ${seen.tickets.length} TLS 1.3 session ticket(s) carries the early_data extension: 0-RTT is off.` }
  return { result: 'enabled', ok: false, evidence: `${early.length} of ${seen.tickets.length} TLS 1.3 session ticket(s) carry early_data with max_early_data_size ${early[0]!.max_early_data}: the server accepts 0-RTT data, which can be replayed.` }
}
