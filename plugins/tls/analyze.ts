import { X509Certificate } from 'node:crypto'
import type { CertificateDetails } from './certificate-details.ts'
import { parseCertificate } from './certificate-details.ts'
import { servedCertificates } from './certificate.ts'
import { analyzeChain } from './chain.ts'
import { distinctSuites, scanTarget } from './ciphers.ts'
import { collectFindings } from './findings.ts'
import { cipherScore, grade, keyExchangeScore, protocolScore, rsaEquivalent } from './grade.ts'
import type { Letter } from './grade.ts'
import type { TlsTarget } from '../../registry/tls/schemas/host-param.ts'
import { matchHostname } from './hostname.ts'
import { fetchHsts } from './hsts.ts'
import type { OcspStaple } from './ocsp.ts'
import { parseOcspStaple } from './ocsp.ts'
import { summarize } from './present.ts'
import type { TlsSettings } from './target.ts'
import { onStarttlsPort, reach, targetFields } from './target.ts'
import type { StarttlsProtocol } from '../../registry/tls/schemas/starttls-param.ts'
import { fanOut } from '../../runtime/net/child-signals.ts'
import { createPool } from './pool.ts'
import type { ProbeContext } from './probe-context.ts'
import { deepScan, groupList, schemeList } from './deep-scan.ts'
import { checkFindings } from './check-findings.ts'
import type { Hsts } from './hsts.ts'
import { suiteOf } from './cipher-suites.ts'
import type { ComplianceFacts } from './profiles/compliance.ts'
import { complianceAnswer, unavailableCompliance } from './profiles/compliance-answer.ts'
import type { ProfilesAnswer } from './profiles/profile-store.ts'

// GET /api/tls/analyze/{host}: everything at once — the handshake, the served
// chain, a full protocol and suite scan and one HTTPS GET for HSTS, run in
// parallel — judged into findings and a grade.

function staple(der: Buffer | null, leaf: CertificateDetails, issuer: X509Certificate | null, now: Date): OcspStaple | null {
  if (!der) return null
  try {
    return parseOcspStaple(der, leaf.serial_number, issuer, now)
  } catch {
    return {
      response_status: 'unparseable',
      cert_status: null,
      produced_at: null,
      this_update: null,
      next_update: null,
      revoked_at: null,
      matches_certificate: false,
      signature_valid: null,
      current: false,
    }
  }
}

/** HSTS is an HTTP header: over STARTTLS there is no HTTP to ask. */
function noHsts(starttls: StarttlsProtocol): Hsts {
  return { checked: false, error: `not checked: HSTS is an HTTP header, and this is ${starttls} over STARTTLS`, status: null, header: null, present: false, max_age: null, include_subdomains: false, preload: false, long_max_age: false }
}

export async function tlsAnalyze(settings: TlsSettings, asked: TlsTarget, signal: AbortSignal, now: Date, starttls: StarttlsProtocol | null = null) {
  const started = performance.now()
  const target = onStarttlsPort(asked, starttls ?? undefined)
  const r = await reach(settings, target, signal, starttls)
  // One pool for every probe of the analysis (the cipher scan, the group and
  // signature scans, the active checks): the connections held open on the
  // target never exceed it, beside the handshake, chain probe and HSTS request.
  const scope = fanOut(signal, settings.concurrency + 4)
  let opened = 0
  const ctx: ProbeContext = {
    dial: r.dial,
    serverName: r.serverName,
    signal: scope.signal,
    timeoutMs: settings.probeTimeoutMs,
    handshakeTimeoutMs: settings.handshakeTimeoutMs,
    pooled: createPool(settings.concurrency),
    opened: () => void opened++,
  }
  let certs: Awaited<ReturnType<typeof servedCertificates>>
  let scan: Awaited<ReturnType<typeof scanTarget>>
  let hsts: Hsts
  let deep: Awaited<ReturnType<typeof deepScan>>
  let profiles: ProfilesAnswer | null
  try {
    // The guidelines load (when not in hand) beside the scans, so they cost no time of their own.
    ;[certs, [scan, deep], hsts, profiles] = await Promise.all([
      servedCertificates(settings, r, signal),
      scanTarget(settings, r, scope.signal, ctx.pooled).then(async (s) => [s, await deepScan(ctx, s)] as const),
      starttls ? noHsts(starttls) : fetchHsts(settings.network, target, { address: r.address, ca: settings.trust.ca, timeoutMs: settings.handshakeTimeoutMs }, signal),
      settings.profiles ? settings.profiles.get(signal) : null,
    ])
  } finally {
    scope.close()
  }
  const hs = certs.handshake
  const chain = analyzeChain(certs.certificates, settings.trust)
  const leaf = parseCertificate(certs.certificates[0]!, now)
  const servedParsed = certs.certificates.map((der) => parseCertificate(der, now))
  const path = chain.path.filter((l) => l.served_position !== null).map((l) => servedParsed[l.served_position!]!)
  const hostname = matchHostname(target, leaf)

  // The issuer of the leaf signs (or delegates) its OCSP responses.
  const issuerLink = chain.path[1]
  const issuerDer = issuerLink ? (issuerLink.served_position !== null ? certs.certificates[issuerLink.served_position] : hs.peer_chain.find((d) => new X509Certificate(d).fingerprint256 === issuerLink.fingerprint_sha256)) : undefined
  const ocsp = staple(hs.ocsp ?? certs.served?.ocsp ?? null, leaf, issuerDer ? new X509Certificate(issuerDer) : null, now)

  const supported = scan.protocols.filter((p) => p.supported)
  const suites = distinctSuites(scan)
  const dhBits = certs.served?.dh_bits ?? (hs.key_exchange?.type === 'DHE' ? hs.key_exchange.bits : null)
  const clientOrdered = supported.filter((p) => p.server_preference === false && p.suites.some((code) => suites.find((s) => s.code === code)!.strength !== 'recommended')).map((p) => p.protocol)

  const findings = collectFindings({
    host: target.host,
    leaf,
    path,
    chain,
    verified: hs.chain_verified,
    verify_error: hs.verify_error,
    hostname,
    protocols: supported.map((p) => p.protocol),
    suites,
    client_ordered: clientOrdered,
    dh_bits: dhBits,
    ocsp,
    hsts,
    now,
  }).filter((f) => !(starttls && f.id === 'hsts_not_checked'))
  findings.push(...checkFindings({ checks: deep.checks, groups: deep.groups, sigalgs: deep.sigalgs, http: starttls === null }))
  const keyBits = Math.min(rsaEquivalent(leaf.public_key.type, leaf.public_key.bits), dhBits ?? Number.POSITIVE_INFINITY)
  const p = protocolScore(supported.map((x) => x.protocol))
  const k = keyExchangeScore(keyBits)
  const c = cipherScore(suites.map((s) => s.bits))
  const score = { protocol: p, key_exchange: k, cipher_strength: c, total: Math.round(0.3 * p + 0.3 * k + 0.4 * c) }
  const trusted = !findings.some((f) => f.grade_cap === 'T')
  const graded = grade({
    score,
    caps: findings.map((f) => f.grade_cap).filter((cap): cap is Letter => cap !== null && cap !== 'T' && cap !== 'M'),
    warnings: findings.some((f) => f.severity === 'critical' || f.severity === 'high' || f.severity === 'medium'),
    hstsLong: hsts.long_max_age,
    tls13: supported.some((x) => x.protocol === 'TLSv1.3'),
    trusted,
    nameMatches: hostname.matches,
  })

  const facts: ComplianceFacts = {
    protocols: supported.map((x) => x.protocol),
    suites: supported.flatMap((x) =>
      x.suites.map((code) => {
        const suite = suiteOf(code)
        return { protocol: x.protocol, name: suite.name, openssl_name: suite.openssl_name, server_preference: x.suites.length > 1 ? x.server_preference : null }
      }),
    ),
    groups: [...new Set([...(deep.groups.tls13 ?? []), ...(deep.groups.tls12 ?? [])].map((g) => g.name))],
    dh_bits: dhBits,
    dhe_suites: supported.some((x) => x.protocol !== 'TLSv1.3' && x.suites.some((code) => suiteOf(code).key_exchange === 'DHE')),
    leaf: { type: leaf.public_key.type, bits: leaf.public_key.bits, curve: leaf.public_key.curve, signature: leaf.signature_algorithm.name, validity_days: leaf.validity_days },
    ocsp_stapled: ocsp !== null,
    hsts: { checked: hsts.checked, reason: hsts.error, present: hsts.present, max_age: hsts.max_age },
  }
  // Compliance is reported beside the grade, not folded into it (README, "The TLS grade").
  const compliance = profiles ? complianceAnswer(profiles, facts) : unavailableCompliance('no source of TLS profiles is configured')

  return {
    ...targetFields(r),
    grade: graded.grade,
    grade_if_trusted: graded.grade_if_trusted,
    score,
    trusted,
    hostname,
    negotiated: {
      protocol: hs.protocol,
      cipher: hs.cipher?.name ?? hs.cipher_openssl_name,
      alpn: hs.alpn,
      key_exchange: hs.key_exchange ? [hs.key_exchange.type, hs.key_exchange.group ?? (hs.key_exchange.bits ? `${hs.key_exchange.bits} bits` : null)].filter(Boolean).join(' ') : null,
    },
    certificate: {
      subject: leaf.subject.text,
      issuer: leaf.issuer.text,
      not_before: leaf.not_before,
      not_after: leaf.not_after,
      days_left: leaf.days_left,
      expired: leaf.expired,
      not_yet_valid: leaf.not_yet_valid,
      public_key: leaf.public_key,
      signature_algorithm: leaf.signature_algorithm.name,
      sct_count: leaf.sct_count,
      must_staple: leaf.must_staple,
    },
    chain: {
      verified: hs.chain_verified,
      verify_error: hs.verify_error,
      complete: chain.complete,
      anchored: chain.anchored,
      anchor_source: chain.anchor_source,
      order_ok: chain.order_ok,
      served_count: chain.served_count,
      root_served: chain.root_served,
      unused_positions: chain.unused_positions,
      missing_issuer: chain.missing_issuer,
      source: certs.source,
      path: chain.path,
    },
    protocols: scan.protocols.map((x) => ({ protocol: x.protocol, supported: x.supported })),
    cipher_summary: (({ by_strength: _, ...rest }) => rest)(summarize(suites)),
    dh_bits: dhBits,
    ocsp_stapling: {
      stapled: ocsp !== null,
      response_status: ocsp?.response_status ?? null,
      cert_status: ocsp?.cert_status ?? null,
      this_update: ocsp?.this_update ?? null,
      next_update: ocsp?.next_update ?? null,
      signature_valid: ocsp?.signature_valid ?? null,
      matches_certificate: ocsp?.matches_certificate ?? null,
    },
    hsts,
    groups: groupList(deep.groups),
    signature_algorithms: schemeList(deep.sigalgs),
    checks: deep.checks,
    compliance,
    findings,
    probes: scan.probes + opened,
    duration_ms: Math.round(performance.now() - started),
  }
}
