import { verify, X509Certificate } from 'node:crypto'
import type { Node } from './der.ts'
import { bitString, bytes, children, integerHex, isContext, oid, parseDer, time, toDer } from './der.ts'

// A stapled OCSP response (RFC 6960 §4.2), read far enough to say what it
// claims and whether it can be believed: the status of the certificate it is
// about, its validity window, that it is about the served leaf, and that the
// issuer (or a responder certificate inside it that the issuer signed) signed it.

export interface OcspStaple {
  response_status: string
  cert_status: 'good' | 'revoked' | 'unknown' | null
  produced_at: string | null
  this_update: string | null
  next_update: string | null
  revoked_at: string | null
  /** The response is about the served leaf (serial number). */
  matches_certificate: boolean
  /** Signed by the issuer or a responder it delegated to; null when the issuer is unknown. */
  signature_valid: boolean | null
  /** thisUpdate <= now <= nextUpdate. */
  current: boolean
}

const RESPONSE_STATUS = ['successful', 'malformed_request', 'internal_error', 'try_later', 'unused', 'sig_required', 'unauthorized']

const HASHES: Record<string, string | null> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.3.101.112': null,
}

function verifiedBy(tbs: Node, algorithm: Node, signature: Node, signer: X509Certificate): boolean {
  try {
    const id = oid(children(algorithm)[0])
    if (!(id in HASHES)) return false
    return verify(HASHES[id] ?? null, toDer(tbs), signer.publicKey, bitString(signature).bytes)
  } catch {
    return false
  }
}

export function parseOcspStaple(der: Buffer, leafSerial: string, issuer: X509Certificate | null, now: Date): OcspStaple {
  const top = children(parseDer(der))
  const status = bytes(top[0])[0] ?? 255
  const empty: OcspStaple = {
    response_status: RESPONSE_STATUS[status] ?? `status_${status}`,
    cert_status: null,
    produced_at: null,
    this_update: null,
    next_update: null,
    revoked_at: null,
    matches_certificate: false,
    signature_valid: null,
    current: false,
  }
  if (status !== 0 || !isContext(top[1], 0)) return empty
  const [, basicOctets] = children(children(top[1])[0])
  const [tbs, algorithm, signature, certsNode] = children(parseDer(bytes(basicOctets)))
  const data = children(tbs)
  let i = isContext(data[0], 0) ? 1 : 0
  i++ // responder id
  const producedAt = time(data[i++])
  const responses = children(data[i])
  const mine = responses.find((r) => integerHex(children(children(r)[0])[3]) === leafSerial) ?? responses[0]
  const out: OcspStaple = { ...empty, produced_at: producedAt.toISOString() }
  if (mine) {
    const fields = children(mine)
    out.matches_certificate = integerHex(children(fields[0])[3]) === leafSerial
    const certStatus = fields[1]!
    out.cert_status = isContext(certStatus, 0) ? 'good' : isContext(certStatus, 1) ? 'revoked' : 'unknown'
    if (out.cert_status === 'revoked') out.revoked_at = time(children(certStatus)[0]).toISOString()
    const thisUpdate = time(fields[2])
    out.this_update = thisUpdate.toISOString()
    const nextNode = fields.slice(3).find((f) => isContext(f, 0))
    const nextUpdate = nextNode ? time(children(nextNode)[0]) : null
    out.next_update = nextUpdate?.toISOString() ?? null
    out.current = thisUpdate.getTime() <= now.getTime() + 300_000 && (nextUpdate === null || now.getTime() <= nextUpdate.getTime())
  }
  if (issuer) {
    const signers: X509Certificate[] = [issuer]
    if (certsNode && isContext(certsNode, 0)) {
      for (const c of children(children(certsNode)[0])) {
        try {
          const responder = new X509Certificate(toDer(c))
          if (responder.checkIssued(issuer) && responder.verify(issuer.publicKey)) signers.push(responder)
        } catch {
          // an unreadable responder certificate signs nothing
        }
      }
    }
    out.signature_valid = signers.some((s) => verifiedBy(tbs!, algorithm!, signature!, s))
  }
  return out
}
