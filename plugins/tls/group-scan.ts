import { LEGACY_SUITES, TLS13_SUITES, suiteOf } from './cipher-suites.ts'
import { NAMED_GROUPS } from './named-groups.ts'
import type { NamedGroup } from './named-groups.ts'
import { exchangeHello } from './probe.ts'
import type { ProbeContext } from './probe-context.ts'
import { pooledProbe } from './probe-context.ts'
import { HANDSHAKE, keyShareGroup, parseServerKeyExchange } from './server-flight.ts'

// Which key exchange groups a server accepts, each offered alone, as the cipher
// scan asks about suites. TLS 1.3: a hello naming one group in supported_groups
// with an empty key_share list; a server that has the group answers with a
// HelloRetryRequest asking for a share of it (RFC 8446 §4.1.4), one that has not
// refuses. No key pair is made on our side, so groups this Node cannot compute —
// the ML-KEM hybrids X25519MLKEM768 and others — are found as well as any.
// TLS 1.2: ECDHE suites only and one curve; the ServerKeyExchange names the
// curve used. Every probe goes through the analysis's pool.

export interface GroupResult {
  id: number
  name: string
  kind: NamedGroup['kind']
  post_quantum: boolean
}

export interface GroupScan {
  /** Groups a TLS 1.3 hello offering each alone was answered for; null: no TLS 1.3. */
  tls13: GroupResult[] | null
  /** Curves a TLS <= 1.2 ECDHE hello offering each alone was answered with; null: no ECDHE suite on TLS <= 1.2. */
  tls12: GroupResult[] | null
  /** The TLS <= 1.2 version the curves were asked on. */
  tls12_version: number | null
  /** A TLS 1.2 server that answered with a curve we had not offered (it ignores supported_groups). */
  ignores_client_curves: boolean
}

const result = (g: NamedGroup): GroupResult => ({ id: g.id, name: g.name, kind: g.kind, post_quantum: g.post_quantum })

async function offersTls13(ctx: ProbeContext, group: NamedGroup): Promise<boolean> {
  const { outcome } = await pooledProbe(ctx, () =>
    exchangeHello(ctx.dial, { versions: [0x0304], suites: TLS13_SUITES, serverName: ctx.serverName, groups: [group.id], keyShares: [] }, ctx.timeoutMs, ctx.signal, () => true),
  )
  return outcome.kind === 'accepted' && outcome.hello.version === 0x0304 && keyShareGroup(outcome.hello) === group.id
}

async function curveTls12(ctx: ProbeContext, version: number, suites: readonly number[], group: NamedGroup): Promise<number | null> {
  const { reader, outcome } = await pooledProbe(ctx, () =>
    exchangeHello(ctx.dial, { versions: [version], suites, serverName: ctx.serverName, groups: [group.id] }, ctx.timeoutMs, ctx.signal, (r) => r.find(HANDSHAKE.serverKeyExchange) !== undefined || r.find(HANDSHAKE.serverHelloDone) !== undefined),
  )
  if (outcome.kind !== 'accepted' || outcome.hello.version !== version) return null
  const kx = reader.find(HANDSHAKE.serverKeyExchange)
  if (!kx) return null
  return parseServerKeyExchange(kx.body, suiteOf(outcome.hello.suite).key_exchange).group
}

export interface GroupScanInput {
  tls13: boolean
  /** The highest TLS <= 1.2 version supported and the ECDHE suites accepted on it (empty: none). */
  legacy: { version: number; ecdheSuites: number[] } | null
}

export async function scanGroups(ctx: ProbeContext, input: GroupScanInput): Promise<GroupScan> {
  const tls13 = input.tls13
    ? (await Promise.all(NAMED_GROUPS.filter((g) => g.tls13).map(async (g) => ((await offersTls13(ctx, g)) ? result(g) : null)))).filter((g): g is GroupResult => g !== null)
    : null
  let tls12: GroupResult[] | null = null
  let ignores = false
  const legacy = input.legacy
  if (legacy && legacy.ecdheSuites.length > 0) {
    // All ECDHE suites the registry knows, so the server's own choice among them is no obstacle.
    const suites = LEGACY_SUITES.filter((code) => suiteOf(code).key_exchange === 'ECDHE')
    const answers = await Promise.all(NAMED_GROUPS.filter((g) => g.tls12).map(async (g) => [g, await curveTls12(ctx, legacy.version, suites, g)] as const))
    tls12 = answers.filter(([g, used]) => used === g.id).map(([g]) => result(g))
    ignores = answers.some(([g, used]) => used !== null && used !== g.id)
  }
  return { tls13, tls12, tls12_version: legacy?.ecdheSuites.length ? legacy.version : null, ignores_client_curves: ignores }
}
