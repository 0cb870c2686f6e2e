import { X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { rootCertificates } from 'node:tls'

// The roots chains are judged against: the system roots plus
// INFRALENS_EXTRA_CA_FILE. System roots are the operating system's bundle — the
// file SSL_CERT_FILE names (as for OpenSSL), else the first bundle found at the
// usual distribution paths — so the verdict matches what curl or openssl on the
// same machine trust, local additions and removals included; only where the
// system has no bundle do Node's bundled Mozilla roots stand in. Parsed once, on
// first use, and indexed by subject for issuer lookups.

export type AnchorSource = 'system' | 'extra'

/** Debian/Ubuntu/Alpine, Fedora/RHEL, and macOS/BSD/Alpine's other name. */
export const SYSTEM_BUNDLE_PATHS: readonly string[] = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem']

export interface SystemRoots {
  pems: readonly string[]
  /** The bundle file read, or "node" for Node's bundled Mozilla roots. */
  origin: string
}

export interface TrustStore {
  /** PEMs for node:tls `ca` (undefined: Node's defaults, which is all the store holds). */
  ca: string[] | undefined
  /** Where the system roots come from (a bundle file, or "node"). */
  systemOrigin: string
  issuersOf(cert: X509Certificate): Array<{ cert: X509Certificate; source: AnchorSource }>
  /** Whether this exact certificate is a trust anchor, and where it comes from. */
  sourceOf(cert: X509Certificate): AnchorSource | null
  /** One of Mozilla's roots as Node bundles them: a publicly trusted CA, whatever the system adds. */
  isPublicRoot(cert: X509Certificate): boolean
}

function splitPem(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
}

/**
 * The system bundle: `file` (SSL_CERT_FILE) when given, else the first of
 * SYSTEM_BUNDLE_PATHS that holds certificates; Node's bundled roots when none does.
 */
export function loadSystemRoots(file: string | undefined, candidates: readonly string[] = SYSTEM_BUNDLE_PATHS): SystemRoots {
  for (const path of file ? [file] : candidates) {
    let text: string
    try {
      text = readFileSync(path, 'utf8')
    } catch {
      continue
    }
    const pems = splitPem(text)
    if (pems.length) return { pems, origin: path }
  }
  return { pems: rootCertificates, origin: 'node' }
}

const parse = (pem: string): X509Certificate | null => {
  try {
    return new X509Certificate(pem)
  } catch {
    return null
  }
}

let publicFingerprints: Set<string> | null = null
const isMozillaRoot = (cert: X509Certificate) => {
  publicFingerprints ??= new Set(rootCertificates.map(parse).flatMap((c) => (c ? [c.fingerprint256] : [])))
  return publicFingerprints.has(cert.fingerprint256)
}

/** `system` omitted: Node's bundled roots (hermetic, for tests and tools). */
export function createTrustStore(options: { system?: SystemRoots; extraPem?: string } = {}): TrustStore {
  const system = options.system ?? { pems: rootCertificates, origin: 'node' }
  const extra = options.extraPem ? splitPem(options.extraPem) : []
  let index: { bySubject: Map<string, Array<{ cert: X509Certificate; source: AnchorSource }>>; byFingerprint: Map<string, AnchorSource> } | null = null
  const load = () => {
    if (index) return index
    const bySubject = new Map<string, Array<{ cert: X509Certificate; source: AnchorSource }>>()
    const byFingerprint = new Map<string, AnchorSource>()
    const add = (pem: string, source: AnchorSource) => {
      const cert = parse(pem)
      if (!cert) return
      const list = bySubject.get(cert.subject) ?? []
      list.push({ cert, source })
      bySubject.set(cert.subject, list)
      byFingerprint.set(cert.fingerprint256, source)
    }
    for (const pem of system.pems) add(pem, 'system')
    for (const pem of extra) add(pem, 'extra')
    index = { bySubject, byFingerprint }
    return index
  }
  return {
    ca: system.origin === 'node' && extra.length === 0 ? undefined : [...system.pems, ...extra],
    systemOrigin: system.origin,
    issuersOf(cert) {
      return (load().bySubject.get(cert.issuer) ?? []).filter((c) => cert.checkIssued(c.cert))
    },
    sourceOf(cert) {
      return load().byFingerprint.get(cert.fingerprint256) ?? null
    },
    isPublicRoot: isMozillaRoot,
  }
}
