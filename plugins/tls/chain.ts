import { X509Certificate } from 'node:crypto'
import type { AnchorSource, TrustStore } from './trust-store.ts'

// The chain as a client builds it from what the server sent: leaf, then for
// each certificate its issuer (name match, key identifiers and a verified
// signature — X509Certificate.checkIssued and verify), from the served
// certificates first and then from the trust store. What it tells that a
// yes/no from OpenSSL does not: whether the served list is in order, which
// served certificates are not part of the path, whether the server sends its
// root, and which issuer is missing when the path breaks off.

export interface ChainLink {
  subject: string
  issuer: string
  fingerprint_sha256: string
  /** Index in the served list; null for a root taken from the trust store. */
  served_position: number | null
  source: 'served' | 'trust_store'
  self_signed: boolean
}

export interface ChainAnalysis {
  served_count: number
  path: ChainLink[]
  /** The path reaches a self-signed certificate or a trust anchor. */
  complete: boolean
  /** The path ends in a trusted root. */
  anchored: boolean
  anchor_source: AnchorSource | null
  /** The anchor is one of Mozilla's roots (publicly trusted), not a local or private CA. */
  anchor_public: boolean
  /** The served certificates the path uses come first, in path order. */
  order_ok: boolean
  /** Served certificates that are not part of the path. */
  unused_positions: number[]
  /** The server sends a self-signed certificate besides a leaf (its root). */
  root_served: boolean
  /** The issuer name nobody provided, when the path breaks off. */
  missing_issuer: string | null
}

const oneLine = (name: string) => name.split('\n').reverse().join(', ')

function signs(issuer: X509Certificate, cert: X509Certificate): boolean {
  try {
    return cert.checkIssued(issuer) && cert.verify(issuer.publicKey)
  } catch {
    return false
  }
}

/**
 * Self-signed: issuer is subject and its own key verifies it. Not checkIssued:
 * that also wants keyCertSign, which many self-signed server certificates lack.
 */
export function isSelfSigned(cert: X509Certificate): boolean {
  try {
    return cert.subject === cert.issuer && cert.verify(cert.publicKey)
  } catch {
    return false
  }
}

export function analyzeChain(served: readonly Buffer[], store: TrustStore): ChainAnalysis {
  const certs = served.map((der) => new X509Certificate(der))
  const selfSigned = certs.map(isSelfSigned)
  const link = (cert: X509Certificate, position: number | null, self: boolean): ChainLink => ({
    subject: oneLine(cert.subject),
    issuer: oneLine(cert.issuer),
    fingerprint_sha256: cert.fingerprint256,
    served_position: position,
    source: position === null ? 'trust_store' : 'served',
    self_signed: self,
  })
  const analysis: ChainAnalysis = {
    served_count: certs.length,
    path: [],
    complete: false,
    anchored: false,
    anchor_source: null,
    anchor_public: false,
    order_ok: true,
    unused_positions: [],
    root_served: certs.some((_, i) => i > 0 && selfSigned[i]),
    missing_issuer: null,
  }
  if (certs.length === 0) return analysis
  const used = new Set<number>([0])
  analysis.path.push(link(certs[0]!, 0, selfSigned[0]!))
  let current = certs[0]!
  let currentSelf = selfSigned[0]!
  for (let depth = 0; depth < 10; depth++) {
    const source = store.sourceOf(current)
    if (source) {
      analysis.complete = true
      analysis.anchored = true
      analysis.anchor_source = source
      analysis.anchor_public = store.isPublicRoot(current)
      break
    }
    if (currentSelf) {
      analysis.complete = true
      break
    }
    const next = certs.findIndex((c, i) => !used.has(i) && signs(c, current))
    if (next >= 0) {
      used.add(next)
      analysis.path.push(link(certs[next]!, next, selfSigned[next]!))
      current = certs[next]!
      currentSelf = selfSigned[next]!
      continue
    }
    const anchor = store.issuersOf(current).find((a) => signs(a.cert, current))
    if (anchor) {
      analysis.path.push(link(anchor.cert, null, isSelfSigned(anchor.cert)))
      analysis.complete = true
      analysis.anchored = true
      analysis.anchor_source = anchor.source
      analysis.anchor_public = store.isPublicRoot(anchor.cert)
      break
    }
    analysis.missing_issuer = oneLine(current.issuer)
    break
  }
  const positions = analysis.path.map((l) => l.served_position).filter((p): p is number => p !== null)
  analysis.order_ok = positions.every((p, i) => p === i)
  analysis.unused_positions = certs.map((_, i) => i).filter((i) => !used.has(i))
  return analysis
}
