import { TLS13_SUITES } from './cipher-suites.ts'
import { GROUP } from './client-hello.ts'
import { exchangeHello } from './probe.ts'
import type { ProbeContext } from './probe-context.ts'
import { pooledProbe } from './probe-context.ts'
import { HANDSHAKE, serverKeyExchangeScheme } from './server-flight.ts'
import { suiteOf } from './cipher-suites.ts'
import { ALL_SCHEME_IDS, SIGNATURE_SCHEMES } from './signature-schemes.ts'
import type { SignatureScheme } from './signature-schemes.ts'
import { DECRYPTABLE_TLS13, createClientKeys } from './tls13-keys.ts'

// Which signature schemes the server signs its handshake with, each offered
// alone in signature_algorithms (signature_algorithms_cert lists them all, so
// the certificate's own signature never decides). TLS 1.2: the scheme is in the
// ServerKeyExchange of an (EC)DHE suite. TLS 1.3: it is in CertificateVerify,
// inside the encrypted flight, which the probe decrypts with its own key share
// (tls13-keys.ts) — the same reading the certificate probe does.

export interface SchemeResult {
  id: number
  name: string
  hash: SignatureScheme['hash']
  weak: boolean
}

export interface SigalgScan {
  tls13: SchemeResult[] | null
  tls12: SchemeResult[] | null
  tls12_version: number | null
}

const result = (s: SignatureScheme): SchemeResult => ({ id: s.id, name: s.name, hash: s.hash, weak: s.weak })

async function signsTls12(ctx: ProbeContext, version: number, suites: readonly number[], scheme: SignatureScheme): Promise<boolean> {
  const { reader, outcome } = await pooledProbe(ctx, () =>
    exchangeHello(
      ctx.dial,
      { versions: [version], suites, serverName: ctx.serverName, signatureAlgorithms: [scheme.id], signatureAlgorithmsCert: ALL_SCHEME_IDS },
      ctx.timeoutMs,
      ctx.signal,
      (r) => r.find(HANDSHAKE.serverKeyExchange) !== undefined || r.find(HANDSHAKE.serverHelloDone) !== undefined,
    ),
  )
  if (outcome.kind !== 'accepted' || outcome.hello.version !== version) return false
  const kx = reader.find(HANDSHAKE.serverKeyExchange)
  return kx !== undefined && serverKeyExchangeScheme(kx.body, suiteOf(outcome.hello.suite).key_exchange) === scheme.id
}

async function signsTls13(ctx: ProbeContext, scheme: SignatureScheme): Promise<boolean> {
  const keys = createClientKeys()
  const { reader, outcome, decrypting } = await pooledProbe(ctx, () =>
    exchangeHello(
      ctx.dial,
      {
        versions: [0x0304],
        suites: TLS13_SUITES.filter((s) => DECRYPTABLE_TLS13[s]),
        serverName: ctx.serverName,
        groups: [GROUP.x25519, GROUP.secp256r1],
        keyShares: keys.shares,
        signatureAlgorithms: [scheme.id],
        signatureAlgorithmsCert: ALL_SCHEME_IDS,
      },
      ctx.timeoutMs,
      ctx.signal,
      (r) => r.find(HANDSHAKE.certificateVerify) !== undefined,
      keys,
    ),
  )
  if (outcome.kind !== 'accepted' || !decrypting) return false
  const verify = reader.find(HANDSHAKE.certificateVerify)
  return verify !== undefined && verify.body.length >= 2 && verify.body.readUInt16BE(0) === scheme.id
}

export interface SigalgScanInput {
  tls13: boolean
  /** The highest TLS 1.2 version and its accepted ECDHE/DHE suites (signature algorithms exist from TLS 1.2 on). */
  tls12: { version: number; signedSuites: number[] } | null
}

export async function scanSignatureSchemes(ctx: ProbeContext, input: SigalgScanInput): Promise<SigalgScan> {
  const tls13Schemes = SIGNATURE_SCHEMES.filter((s) => !s.tls12_only)
  const tls13 = input.tls13 ? (await Promise.all(tls13Schemes.map(async (s) => ((await signsTls13(ctx, s)) ? result(s) : null)))).filter((s): s is SchemeResult => s !== null) : null
  const legacy = input.tls12
  const tls12 =
    legacy && legacy.signedSuites.length > 0
      ? (await Promise.all(SIGNATURE_SCHEMES.map(async (s) => ((await signsTls12(ctx, legacy.version, legacy.signedSuites, s)) ? result(s) : null)))).filter((s): s is SchemeResult => s !== null)
      : null
  return { tls13, tls12, tls12_version: legacy?.signedSuites.length ? legacy.version : null }
}
