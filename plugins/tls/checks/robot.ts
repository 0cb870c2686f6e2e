import { constants, publicEncrypt, randomBytes, X509Certificate } from 'node:crypto'
import type { ProtocolScan } from '../cipher-scan.ts'
import { suiteOf } from '../cipher-suites.ts'
import { buildClientHello } from '../client-hello.ts'
import { converse, tlsRecord } from '../conversation.ts'
import type { ProbeContext } from '../probe-context.ts'
import { pooledProbe } from '../probe-context.ts'
import { alertOf, ALERTS, CONTENT, HANDSHAKE, parseCertificateMessage } from '../server-flight.ts'
import type { CheckResult } from './check-result.ts'
import { notApplicable } from './check-result.ts'

// ROBOT (Return Of Bleichenbacher's Oracle Threat, 2017): does the server answer
// differently when an RSA-encrypted premaster secret is badly padded? If it
// does, its RSA key can be made to decrypt or sign for an attacker. The test is
// the one the ROBOT authors published and testssl.sh runs: five handshakes with
// an RSA key-transport suite, each sending a ClientKeyExchange whose premaster
// secret we pad ourselves — correctly (0), with wrong leading bytes (1), a 0x00
// in the wrong place (2), no 0x00 separator (3), a wrong version (4) — first
// followed by ChangeCipherSpec and a Finished of random bytes, then without
// them (some servers leak only in that shorter flow). A server that answers all
// five the same way is not an oracle. Safe: nothing is decrypted or signed, the
// server only refuses five handshakes; fast: the ten connections run through the
// pool side by side, and the shorter flow, where a sound server waits for the
// Finished that never comes, waits a few times the longest answer of the first.

const VARIANTS = ['correct padding', 'wrong first bytes 0x4117', '0x00 in the wrong place', 'no 0x00 separator', 'wrong version 0x0202'] as const

function premaster(variant: number, k: number, version: number): Buffer {
  const secret = randomBytes(46)
  const v = Buffer.from([version >> 8, version & 0xff])
  const padLength = k - 3 - 48
  const pad = Buffer.from(randomBytes(padLength).map((b) => (b === 0 ? 0xab : b)))
  switch (variant) {
    case 0:
      return Buffer.concat([Buffer.from([0, 2]), pad, Buffer.from([0]), v, secret])
    case 1:
      return Buffer.concat([Buffer.from([0x41, 0x17]), pad, Buffer.from([0]), v, secret])
    case 2:
      return Buffer.concat([Buffer.from([0, 2]), pad, Buffer.from([0x11]), secret, Buffer.from([0, 0x11])])
    case 3:
      return Buffer.concat([Buffer.from([0, 2]), pad, Buffer.from([0x11, 0x11, 0x11]), secret])
    default:
      return Buffer.concat([Buffer.from([0, 2]), pad, Buffer.from([0, 2, 2]), secret])
  }
}

interface Answer {
  /** alert:<name>, closed, reset or timeout: what is compared. */
  what: string
  ms: number
}

async function attempt(ctx: ProbeContext, version: number, suites: readonly number[], variant: number, full: boolean, waitMs: number): Promise<Answer | string> {
  return pooledProbe(ctx, async () => {
    const talk = await converse(ctx.dial, ctx.signal, ctx.timeoutMs + waitMs)
    try {
      talk.send(buildClientHello({ versions: [version], suites, serverName: ctx.serverName }).record)
      const flight = await talk.wait((r) => r.find(HANDSHAKE.serverHelloDone) !== undefined || r.alert !== null, ctx.timeoutMs)
      const cert = talk.reader.find(HANDSHAKE.certificate)
      if (flight !== 'met' || talk.reader.alert || !cert) return 'the server did not complete its first flight for an RSA key-transport suite'
      const leaf = parseCertificateMessage(cert.body, false)[0]
      if (!leaf) return 'the server sent no certificate'
      const key = new X509Certificate(leaf.der).publicKey
      const k = Math.ceil((key.asymmetricKeyDetails?.modulusLength ?? 0) / 8)
      if (key.asymmetricKeyType !== 'rsa' || k < 64) return 'the certificate key is not RSA'
      const encrypted = publicEncrypt({ key, padding: constants.RSA_NO_PADDING }, premaster(variant, k, version))
      const body = Buffer.concat([Buffer.from([encrypted.length >> 8, encrypted.length & 0xff]), encrypted])
      const keyExchange = tlsRecord(CONTENT.handshake, version, Buffer.concat([Buffer.from([16, 0, body.length >> 8, body.length & 0xff]), body]))
      const tail = full ? [tlsRecord(CONTENT.changeCipherSpec, version, Buffer.from([1])), tlsRecord(CONTENT.handshake, version, randomBytes(64))] : []
      const sent = performance.now()
      talk.send(Buffer.concat([keyExchange, ...tail]))
      const outcome = await talk.wait((r) => r.alert !== null, waitMs)
      const ms = performance.now() - sent
      const alert = alertOf(talk.reader)
      if (alert) return { what: `alert ${ALERTS[alert.description] ?? alert.description}`, ms }
      return { what: outcome === 'timeout' ? 'no answer' : talk.endedBy() === 'reset' ? 'connection reset' : 'connection closed', ms }
    } finally {
      talk.close()
    }
  })
}

const describe = (answers: readonly Answer[]) => answers.map((a, i) => `${VARIANTS[i]}: ${a.what}`).join('; ')

export async function checkRobot(ctx: ProbeContext, protocols: readonly ProtocolScan[]): Promise<CheckResult> {
  const legacy = [...protocols].reverse().find((p) => p.supported && p.version < 0x0304 && p.version >= 0x0301 && p.suites.some((s) => suiteOf(s).key_exchange === 'RSA'))
  if (!legacy) return notApplicable('not_applicable', 'No RSA key-transport suite is accepted, so there is no RSA decryption to make an oracle of.')
  const suites = legacy.suites.filter((s) => suiteOf(s).key_exchange === 'RSA')
  const round = async (full: boolean, waitMs: number): Promise<Answer[] | string> => {
    const answers = await Promise.all(VARIANTS.map((_, i) => attempt(ctx, legacy.version, suites, i, full, waitMs)))
    const failed = answers.find((a): a is string => typeof a === 'string')
    return failed ?? (answers as Answer[])
  }
  const full = await round(true, ctx.timeoutMs)
  if (typeof full === 'string') return { result: 'unknown', ok: null, evidence: `The test could not run on ${legacy.protocol}: ${full}.` }
  const verdict = (answers: Answer[], flow: string): CheckResult | null => {
    if (answers.every((a) => a.what === answers[0]!.what)) return null
    const weak = answers[1]!.what === answers[2]!.what && answers[2]!.what === answers[3]!.what
    return {
      result: weak ? 'weakly_vulnerable' : 'vulnerable',
      ok: false,
      evidence: `RSA key exchange on ${legacy.protocol} ${flow}, five premaster paddings were answered differently — ${describe(answers)}${weak ? ' (only the correct or wrong-version padding stands out: an attack would take very long)' : ''}.`,
    }
  }
  const first = verdict(full, 'with ChangeCipherSpec and Finished')
  if (first) return first
  // The shorter flow: a sound server waits for the Finished; give it a few times the slowest answer above.
  const waitMs = Math.min(ctx.timeoutMs, Math.max(100, 4 * Math.max(...full.map((a) => a.ms))))
  const short = await round(false, waitMs)
  if (typeof short === 'string') return { result: 'unknown', ok: null, evidence: `The second round could not run on ${legacy.protocol}: ${short}.` }
  let second = verdict(short, 'without ChangeCipherSpec and Finished')
  if (second && short.some((a) => a.what === 'no answer') && waitMs < ctx.timeoutMs) {
    // A difference that rests on a short wait: confirm it with the full probe deadline.
    const again = await round(false, ctx.timeoutMs)
    second = typeof again === 'string' ? null : verdict(again, 'without ChangeCipherSpec and Finished')
  }
  if (second) return second
  return { result: 'not_vulnerable', ok: true, evidence: `RSA key exchange on ${legacy.protocol}: five premaster paddings got the same answer with ChangeCipherSpec and Finished (${full[0]!.what}) and without them (${short[0]!.what}).` }
}
