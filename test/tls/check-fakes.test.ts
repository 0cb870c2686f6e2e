import type { KeyObject } from 'node:crypto'
import { connect } from 'node:net'
import type { Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkFindings } from '../../plugins/tls/check-findings.ts'
import { scanCiphers } from '../../plugins/tls/cipher-scan.ts'
import { checkCcsInjection } from '../../plugins/tls/checks/ccs-injection.ts'
import { highestLegacy } from '../../plugins/tls/checks/check-result.ts'
import { checkCompression } from '../../plugins/tls/checks/compression.ts'
import { checkFallbackScsv } from '../../plugins/tls/checks/fallback-scsv.ts'
import { checkHeartbeat } from '../../plugins/tls/checks/heartbleed.ts'
import { checkRobot } from '../../plugins/tls/checks/robot.ts'
import { runChecks } from '../../plugins/tls/checks/run-checks.ts'
import { checkSecureRenegotiation } from '../../plugins/tls/checks/secure-renegotiation.ts'
import { scanGroups } from '../../plugins/tls/group-scan.ts'
import { createPool } from '../../plugins/tls/pool.ts'
import type { ProbeContext } from '../../plugins/tls/probe-context.ts'
import type { FlawOptions, FlawServer } from '../support/fake-tls-flaws.ts'
import { startFlawServer } from '../support/fake-tls-flaws.ts'
import { createTestPki, leafFor } from '../support/tls-servers.ts'
import type { TestPki } from '../support/tls-servers.ts'

// The active checks against servers no OpenSSL on these machines can be
// (issue 24): Heartbleed, CCS injection, compression, no RFC 5746, a server
// that ignores TLS_FALLBACK_SCSV, post-quantum groups. The fake
// (test/support/fake-tls-flaws.ts) plays the first flight with each flaw or
// its fix; each check runs on real loopback sockets through the same dial,
// pool and hello builder the analysis uses, and the findings are judged from
// what the checks saw. The counterparts on real servers: active-checks.test.ts.

let pki: TestPki
let certificates: Buffer[]
let leafKey: KeyObject
const servers: FlawServer[] = []

beforeAll(() => {
  pki = createTestPki()
  const leaf = leafFor(pki, 'flaws.tls.test')
  certificates = [leaf.der, pki.intermediate.der]
  leafKey = leaf.key.privateKey
})
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
  pki?.close()
})

async function fake(o: Omit<FlawOptions, 'certificates'>): Promise<{ server: FlawServer; ctx: ProbeContext }> {
  const server = await startFlawServer({ ...o, certificates })
  servers.push(server)
  const dial = (signal: AbortSignal) =>
    new Promise<Socket>((resolve, reject) => {
      const s = connect(server.port, server.host, () => resolve(s))
      s.once('error', reject)
      signal.addEventListener('abort', () => s.destroy(new Error('aborted')), { once: true })
    })
  const ctx: ProbeContext = { dial, serverName: 'flaws.tls.test', signal: new AbortController().signal, timeoutMs: 2_000, handshakeTimeoutMs: 3_000, pooled: createPool(6), opened: () => {} }
  return { server, ctx }
}

const TLS12 = { version: 0x0303, name: 'TLSv1.2', suites: [0x009c, 0x002f] }

describe('Heartbleed and the heartbeat extension', () => {
  it('vulnerable: the over-long request is echoed (our own bytes only), heartbleed critical, capped at F', async () => {
    const { server, ctx } = await fake({ heartbeat: 'vulnerable' })
    const r = await checkHeartbeat(ctx, TLS12)
    expect(r.heartbeat).toMatchObject({ result: 'offered', ok: true })
    expect(r.heartbleed).toMatchObject({ result: 'vulnerable', ok: false })
    expect(r.heartbleed.evidence).toContain('payload_length (32)')
    expect(server.stats.heartbeats).toBeGreaterThanOrEqual(1)
    const findings = checkFindings({ checks: { ...(await baseline()), heartbeat: r.heartbeat, heartbleed: r.heartbleed }, groups: noGroups, sigalgs: noSigalgs, http: true })
    expect(findings.find((f) => f.id === 'heartbleed')).toMatchObject({ severity: 'critical', grade_cap: 'F', evidence: r.heartbleed.evidence })
  })

  it('patched: the over-long request is discarded, the well-formed one answered', async () => {
    const { server, ctx } = await fake({ heartbeat: 'patched' })
    const r = await checkHeartbeat(ctx, TLS12)
    expect(r.heartbeat.result).toBe('offered')
    expect(r.heartbleed).toMatchObject({ result: 'not_vulnerable', ok: true })
    expect(r.heartbleed.evidence).toContain('well-formed one sent after it was answered')
    expect(server.stats.heartbeats).toBe(1)
    const findings = checkFindings({ checks: { ...(await baseline()), heartbeat: r.heartbeat, heartbleed: r.heartbleed }, groups: noGroups, sigalgs: noSigalgs, http: true })
    expect(findings.map((f) => f.id)).toEqual(['heartbeat_enabled'])
  })

  it('no heartbeat extension: nothing is sent, not vulnerable', async () => {
    const { server, ctx } = await fake({ heartbeat: 'none' })
    const r = await checkHeartbeat(ctx, TLS12)
    expect(r.heartbeat.result).toBe('not_offered')
    expect(r.heartbleed).toMatchObject({ result: 'not_vulnerable', ok: true })
    expect(server.stats.heartbeats).toBe(0)
  })
})

describe('CCS injection (CVE-2014-0224)', () => {
  it('vulnerable: the early ChangeCipherSpec is taken, the next record fails with bad_record_mac', async () => {
    const { server, ctx } = await fake({ ccs: 'vulnerable' })
    const r = await checkCcsInjection(ctx, TLS12)
    expect(r).toMatchObject({ result: 'vulnerable', ok: false })
    expect(r.evidence).toContain('bad_record_mac')
    expect(server.stats.ccsTaken).toBe(1)
    const findings = checkFindings({ checks: { ...(await baseline()), ccs_injection: r }, groups: noGroups, sigalgs: noSigalgs, http: true })
    expect(findings.find((f) => f.id === 'ccs_injection')).toMatchObject({ severity: 'critical', grade_cap: 'F' })
  })

  it('patched: refused with unexpected_message', async () => {
    const { ctx } = await fake({ ccs: 'patched' })
    const r = await checkCcsInjection(ctx, TLS12)
    expect(r).toMatchObject({ result: 'not_vulnerable', ok: true })
    expect(r.evidence).toContain('unexpected_message')
  })
})

describe('compression, secure renegotiation, fallback', () => {
  it('a server that picks DEFLATE: compression supported, tls_compression capped at C', async () => {
    const { ctx } = await fake({ compression: true })
    const r = await checkCompression(ctx, TLS12)
    expect(r).toMatchObject({ result: 'supported', ok: false })
    expect(r.evidence).toContain('compression method 1 (DEFLATE)')
    const findings = checkFindings({ checks: { ...(await baseline()), compression: r }, groups: noGroups, sigalgs: noSigalgs, http: true })
    expect(findings.find((f) => f.id === 'tls_compression')).toMatchObject({ severity: 'high', grade_cap: 'C' })
    const { ctx: plain } = await fake({ compression: false })
    expect(await checkCompression(plain, TLS12)).toMatchObject({ result: 'not_supported', ok: true })
  })

  it('no renegotiation_info in the ServerHello: secure renegotiation not supported, capped at C', async () => {
    const { ctx } = await fake({ secureRenegotiation: false })
    const r = await checkSecureRenegotiation(ctx, TLS12)
    expect(r).toMatchObject({ result: 'not_supported', ok: false })
    const findings = checkFindings({ checks: { ...(await baseline()), secure_renegotiation: r }, groups: noGroups, sigalgs: noSigalgs, http: true })
    expect(findings.find((f) => f.id === 'no_secure_renegotiation')).toMatchObject({ severity: 'high', grade_cap: 'C' })
    const { ctx: sound } = await fake({ secureRenegotiation: true })
    expect(await checkSecureRenegotiation(sound, TLS12)).toMatchObject({ result: 'supported', ok: true })
  })

  it('TLS_FALLBACK_SCSV: honoured (inappropriate_fallback) or ignored, on the versions the cipher scan found', async () => {
    for (const honoured of [true, false]) {
      const { ctx } = await fake({ fallbackScsv: honoured })
      const scan = await scanCiphers(ctx.dial, { serverName: ctx.serverName, signal: ctx.signal, concurrency: 4, probeTimeoutMs: 2_000 })
      expect(scan.protocols.filter((p) => p.supported).map((p) => p.protocol)).toEqual(['TLSv1.0', 'TLSv1.1', 'TLSv1.2'])
      const r = await checkFallbackScsv(ctx, scan.protocols)
      expect(r).toMatchObject(honoured ? { result: 'supported', ok: true } : { result: 'not_supported', ok: false })
      expect(r.evidence).toContain(honoured ? 'inappropriate_fallback' : 'was accepted')
    }
  })
})

describe('ROBOT', () => {
  it('a server whose alerts tell bad RSA paddings apart: vulnerable (a strong oracle), capped at F, each answer in the evidence', async () => {
    const { ctx } = await fake({ robot: 'oracle', privateKey: leafKey })
    const scan = await scanCiphers(ctx.dial, { serverName: ctx.serverName, signal: ctx.signal, concurrency: 4, probeTimeoutMs: 2_000 })
    const r = await checkRobot(ctx, scan.protocols)
    expect(r).toMatchObject({ result: 'vulnerable', ok: false })
    expect(r.evidence).toContain('wrong first bytes 0x4117: alert decrypt_error')
    expect(r.evidence).toContain('no 0x00 separator: alert handshake_failure')
    expect(r.evidence).toContain('correct padding: alert bad_record_mac')
    const findings = checkFindings({ checks: { ...(await baseline()), robot: r }, groups: noGroups, sigalgs: noSigalgs, http: true })
    expect(findings.find((f) => f.id === 'robot')).toMatchObject({ severity: 'critical', grade_cap: 'F' })
  })

  it('a server that answers every padding alike: not vulnerable, in both flows', async () => {
    const { ctx } = await fake({ robot: 'sound', privateKey: leafKey })
    const scan = await scanCiphers(ctx.dial, { serverName: ctx.serverName, signal: ctx.signal, concurrency: 4, probeTimeoutMs: 2_000 })
    const r = await checkRobot(ctx, scan.protocols)
    expect(r).toMatchObject({ result: 'not_vulnerable', ok: true })
    expect(r.evidence).toContain('with ChangeCipherSpec and Finished (alert bad_record_mac) and without them (no answer)')
  })
})

describe('post-quantum groups (no OpenSSL here has ML-KEM: the fake selects it)', () => {
  it('X25519MLKEM768 offered alone gets a HelloRetryRequest for it: found, and no no_post_quantum_group finding', async () => {
    const { ctx } = await fake({ maxVersion: 0x0304, groups13: [0x11ec, 29] })
    const groups = await scanGroups(ctx, { tls13: true, legacy: null })
    expect(groups.tls13?.map((g) => g.name)).toEqual(['X25519MLKEM768', 'x25519'])
    expect(groups.tls13?.[0]).toMatchObject({ id: 0x11ec, kind: 'hybrid', post_quantum: true })
    const findings = checkFindings({ checks: await baseline(), groups, sigalgs: noSigalgs, http: true })
    expect(findings.map((f) => f.id)).not.toContain('no_post_quantum_group')
  })

  it('only classical groups on TLS 1.3: the no_post_quantum_group finding, with what was offered and accepted', async () => {
    const { ctx } = await fake({ maxVersion: 0x0304, groups13: [29, 23] })
    const groups = await scanGroups(ctx, { tls13: true, legacy: null })
    expect(groups.tls13?.map((g) => g.name)).toEqual(['x25519', 'secp256r1'])
    const findings = checkFindings({ checks: await baseline(), groups, sigalgs: noSigalgs, http: true })
    const pq = findings.find((f) => f.id === 'no_post_quantum_group')
    expect(pq).toMatchObject({ severity: 'low', grade_cap: null })
    expect(pq!.evidence).toContain('X25519MLKEM768')
    expect(pq!.evidence).toContain('Accepted: x25519, secp256r1')
  })
})

describe('every check at once on the fake', () => {
  it('runChecks: heartbleed and CCS injection vulnerable, ROBOT answered alike (the fake aborts every key exchange the same way)', async () => {
    const { ctx } = await fake({ heartbeat: 'vulnerable', ccs: 'vulnerable' })
    const scan = await scanCiphers(ctx.dial, { serverName: ctx.serverName, signal: ctx.signal, concurrency: 4, probeTimeoutMs: 2_000 })
    const checks = await runChecks(ctx, scan.protocols)
    expect(checks.heartbleed.result).toBe('vulnerable')
    expect(checks.ccs_injection.result).toBe('vulnerable')
    expect(checks.robot.result).toBe('not_vulnerable')
    expect(checks.secure_renegotiation.result).toBe('supported')
    expect(checks.fallback_scsv.result).toBe('supported')
    // node:tls cannot finish a handshake with the fake: those checks say why instead of guessing.
    expect(checks.client_renegotiation.result).toBe('unknown')
    expect(checks.session_id_resumption.result).toBe('unknown')
    expect(highestLegacy(scan.protocols)?.name).toBe('TLSv1.2')
  })
})

// A check set with nothing wrong (what the sound fake answers), to vary one check at a time.
async function baseline() {
  const { ctx } = await fake({})
  const scan = await scanCiphers(ctx.dial, { serverName: ctx.serverName, signal: ctx.signal, concurrency: 4, probeTimeoutMs: 2_000 })
  const checks = await runChecks(ctx, scan.protocols)
  // No full handshake with the fake: say what a server with resumption and no renegotiation would.
  return {
    ...checks,
    client_renegotiation: { result: 'refused', ok: true, evidence: 'test baseline' },
    session_id_resumption: { result: 'supported', ok: true, evidence: 'test baseline' },
    session_ticket_resumption: { result: 'supported', ok: true, evidence: 'test baseline' },
    early_data: { result: 'not_applicable', ok: null, evidence: 'test baseline' },
  }
}
const noGroups = { tls13: null, tls12: null, tls12_version: null, ignores_client_curves: false }
const noSigalgs = { tls13: null, tls12: null, tls12_version: null }
