import { createHash, createPublicKey, X509Certificate } from 'node:crypto'
import type { TlsaData } from '../../runtime/net/dns/dns-records.ts'

// One TLSA record against the chain a server sent (RFC 6698 §2.1, RFC 7671 §5):
// the association data is the certificate (selector 0) or its SubjectPublicKeyInfo
// (selector 1), in full (matching type 0) or as its SHA-256 / SHA-512 digest (1, 2).
//   DANE-EE (3): the leaf matches; nothing else is checked (no names, no dates, no
//                chain: RFC 7671 §5.1).
//   DANE-TA (2): a certificate the server sent matches and the leaf chains up to it
//                (each signed by the next), the leaf names the host, and every
//                certificate of that path is within its dates (RFC 7671 §5.2). A
//                full public key (2 1 0) may also be a trust anchor the server did
//                not send: the top certificate sent must then be signed by it.
//   PKIX-EE (1) / PKIX-TA (0): the certificate matches and the chain is valid by
//                PKIX (web only; RFC 7672 §3.1.3 makes them unusable for SMTP).

export type Service = 'smtp' | 'tls' | 'none'

export interface ServedCertificate {
  position: number
  x509: X509Certificate
  der: Buffer
}

export interface RecordCheck {
  usable: boolean
  unusable_reason: string | null
  matches: boolean | null
  matched_position: number | null
  problem: string | null
}

export interface MatchContext {
  service: Service
  /** Names the leaf must carry for DANE-TA (the host; for SMTP also the mail domain). */
  referenceNames: readonly string[]
  /** The service clock (ms). */
  nowMs: number
  /** The chain verifies to a trusted root and names the host (for PKIX usages); null when unknown. */
  pkixValid: boolean | null
}

export const USAGE_NAMES: Readonly<Record<number, string>> = { 0: 'PKIX-TA', 1: 'PKIX-EE', 2: 'DANE-TA', 3: 'DANE-EE' }
export const SELECTOR_NAMES: Readonly<Record<number, string>> = { 0: 'Cert', 1: 'SPKI' }
export const MATCHING_NAMES: Readonly<Record<number, string>> = { 0: 'Full', 1: 'SHA2-256', 2: 'SHA2-512' }

export function served(ders: readonly Buffer[]): ServedCertificate[] {
  return ders.map((der, position) => ({ position, der, x509: new X509Certificate(der) }))
}

export function spkiOf(x509: X509Certificate): Buffer {
  return x509.publicKey.export({ type: 'spki', format: 'der' })
}

/** The association data a certificate would have under a selector and matching type; null for unknown ones. */
export function associationOf(cert: ServedCertificate, selector: number, matchingType: number): Buffer | null {
  const data = selector === 0 ? cert.der : selector === 1 ? spkiOf(cert.x509) : null
  if (data === null) return null
  if (matchingType === 0) return data
  if (matchingType === 1) return createHash('sha256').update(data).digest()
  if (matchingType === 2) return createHash('sha512').update(data).digest()
  return null
}

function unusableReason(record: TlsaData, service: Service): string | null {
  if (USAGE_NAMES[record.usage] === undefined) return `usage ${record.usage} is not defined`
  if (SELECTOR_NAMES[record.selector] === undefined) return `selector ${record.selector} is not defined`
  if (MATCHING_NAMES[record.matchingType] === undefined) return `matching type ${record.matchingType} is not defined`
  if (service === 'smtp' && record.usage < 2) return `usage ${record.usage} (${USAGE_NAMES[record.usage]}) is unusable for SMTP (RFC 7672 §3.1.3)`
  return null
}

const within = (cert: ServedCertificate, nowMs: number): boolean => Date.parse(cert.x509.validFrom) <= nowMs && nowMs <= Date.parse(cert.x509.validTo)

/**
 * The leaf's issuer path through what the server sent, as a client builds it (the
 * sent order need not be the path's): each next certificate issued and signed the
 * one before.
 */
export function issuerPath(chain: readonly ServedCertificate[]): ServedCertificate[] {
  const path = chain.slice(0, 1)
  for (;;) {
    const last = path[path.length - 1]
    if (!last || path.length > chain.length) return path
    const issuer = chain.find((c) => !path.includes(c) && last.x509.checkIssued(c.x509) && last.x509.verify(c.x509.publicKey))
    if (!issuer) return path
    path.push(issuer)
  }
}

function namesHost(leaf: ServedCertificate, names: readonly string[]): boolean {
  return names.some((name) => leaf.x509.checkHost(name, { subject: 'default', wildcards: true, partialWildcards: false }) !== undefined)
}

/** DANE-TA's checks once the anchor is known: the leaf's path up to it, its name, the dates on the way. */
function taProblem(chain: readonly ServedCertificate[], anchor: ServedCertificate | 'above', ctx: MatchContext): string | null {
  const path = issuerPath(chain)
  const top = anchor === 'above' ? path.length - 1 : path.indexOf(anchor)
  if (top < 0 && anchor !== 'above') return `the leaf does not chain up to the certificate at position ${anchor.position} (each signed by the next)`
  if (!namesHost(chain[0]!, ctx.referenceNames)) return `the leaf does not name ${ctx.referenceNames.join(' or ')}`
  const stale = path.slice(0, top + 1).find((c) => !within(c, ctx.nowMs))
  if (stale) return `the certificate at position ${stale.position} is outside its validity dates`
  return null
}

export function checkRecord(record: TlsaData, chain: readonly ServedCertificate[] | null, ctx: MatchContext): RecordCheck {
  const reason = unusableReason(record, ctx.service)
  const base = { usable: reason === null, unusable_reason: reason }
  if (chain === null || chain.length === 0) return { ...base, matches: null, matched_position: null, problem: null }
  const wanted = Buffer.from(record.associationData, 'hex')
  const candidates = record.usage === 1 || record.usage === 3 ? chain.slice(0, 1) : record.usage === 0 || record.usage === 2 ? chain.slice(1) : chain
  const hit = candidates.find((cert) => associationOf(cert, record.selector, record.matchingType)?.equals(wanted) === true)

  if (!hit) {
    // 2 1 0: the anchor's whole key, which may have signed the top of the chain unsent.
    if (record.usage === 2 && record.selector === 1 && record.matchingType === 0 && chain.length > 0) {
      const top = issuerPath(chain).at(-1)!
      try {
        const key = createPublicKey({ key: wanted, format: 'der', type: 'spki' })
        if (top.x509.verify(key)) {
          const problem = taProblem(chain, 'above', ctx)
          return { ...base, matches: base.usable && problem === null, matched_position: null, problem }
        }
      } catch {
        // not a key: no match
      }
    }
    return { ...base, matches: false, matched_position: null, problem: null }
  }
  let problem: string | null = null
  if (record.usage === 2) problem = taProblem(chain, hit, ctx)
  else if (record.usage === 0 || record.usage === 1) {
    if (ctx.pkixValid === false) problem = 'the chain is not valid by PKIX (trusted root and host name), which usages 0 and 1 require'
    else if (ctx.pkixValid === null) problem = 'PKIX validity of the chain is unknown'
  }
  return { ...base, matches: base.usable && problem === null, matched_position: hit.position, problem }
}

