import { X509Certificate } from 'node:crypto'
import { isSelfSigned } from './chain.ts'
import type { Node } from './der.ts'
import { bitString, bytes, children, integer, integerHex, isContext, isUniversal, oid, parseDer, time, TYPE } from './der.ts'

// One certificate, parsed into what people look at. node:crypto's
// X509Certificate gives the fingerprints, the public key and the PEM;
// everything else (names by attribute, validity as dates, the signature
// algorithm, key usage bits, basic constraints, AIA, CRL points, the SCT list,
// the TLS feature "must staple") is read from the DER with node-forge's ASN.1
// reader (der.ts), because X509Certificate has no accessor for those.

export interface NameInfo {
  /** RFC 4514 order reversed to the usual reading order: "CN=..., O=..., C=...". */
  text: string
  common_name: string | null
  organization: string | null
  organizational_unit: string | null
  country: string | null
}

export interface CertificateDetails {
  subject: NameInfo
  issuer: NameInfo
  serial_number: string
  version: number
  sans: { dns: string[]; ip: string[]; email: string[]; uri: string[] }
  not_before: string
  not_after: string
  validity_days: number
  days_left: number
  expired: boolean
  not_yet_valid: boolean
  public_key: { type: string; bits: number | null; curve: string | null }
  signature_algorithm: { name: string; oid: string; hash: string | null; weak: boolean }
  fingerprint_sha1: string
  fingerprint_sha256: string
  key_usage: string[]
  extended_key_usage: string[]
  basic_constraints: { ca: boolean; path_length: number | null; critical: boolean } | null
  aia: { ocsp: string[]; ca_issuers: string[] }
  crl_distribution_points: string[]
  sct_count: number
  must_staple: boolean
  subject_key_id: string | null
  authority_key_id: string | null
  self_signed: boolean
  pem: string
}

const NAME_ATTRIBUTES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'STREET',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.5': 'serialNumber',
  '2.5.4.15': 'businessCategory',
  '2.5.4.17': 'postalCode',
  '1.2.840.113549.1.9.1': 'emailAddress',
  '0.9.2342.19200300.100.1.25': 'DC',
  '0.9.2342.19200300.100.1.1': 'UID',
  '1.3.6.1.4.1.311.60.2.1.3': 'jurisdictionC',
}

const SIGNATURES: Record<string, [name: string, hash: string | null]> = {
  '1.2.840.113549.1.1.2': ['md2WithRSAEncryption', 'MD2'],
  '1.2.840.113549.1.1.4': ['md5WithRSAEncryption', 'MD5'],
  '1.2.840.113549.1.1.5': ['sha1WithRSAEncryption', 'SHA-1'],
  '1.2.840.113549.1.1.14': ['sha224WithRSAEncryption', 'SHA-224'],
  '1.2.840.113549.1.1.11': ['sha256WithRSAEncryption', 'SHA-256'],
  '1.2.840.113549.1.1.12': ['sha384WithRSAEncryption', 'SHA-384'],
  '1.2.840.113549.1.1.13': ['sha512WithRSAEncryption', 'SHA-512'],
  '1.2.840.113549.1.1.10': ['rsassaPss', null],
  '1.2.840.10045.4.1': ['ecdsa-with-SHA1', 'SHA-1'],
  '1.2.840.10045.4.3.1': ['ecdsa-with-SHA224', 'SHA-224'],
  '1.2.840.10045.4.3.2': ['ecdsa-with-SHA256', 'SHA-256'],
  '1.2.840.10045.4.3.3': ['ecdsa-with-SHA384', 'SHA-384'],
  '1.2.840.10045.4.3.4': ['ecdsa-with-SHA512', 'SHA-512'],
  '1.2.840.10040.4.3': ['dsa-with-sha1', 'SHA-1'],
  '2.16.840.1.101.3.4.3.2': ['dsa-with-sha256', 'SHA-256'],
  '1.3.101.112': ['Ed25519', null],
  '1.3.101.113': ['Ed448', null],
}

const EKU: Record<string, string> = {
  '1.3.6.1.5.5.7.3.1': 'serverAuth',
  '1.3.6.1.5.5.7.3.2': 'clientAuth',
  '1.3.6.1.5.5.7.3.3': 'codeSigning',
  '1.3.6.1.5.5.7.3.4': 'emailProtection',
  '1.3.6.1.5.5.7.3.8': 'timeStamping',
  '1.3.6.1.5.5.7.3.9': 'OCSPSigning',
  '2.5.29.37.0': 'anyExtendedKeyUsage',
  '1.3.6.1.4.1.311.10.3.3': 'msSGC',
  '2.16.840.1.113730.4.1': 'nsSGC',
}

const KEY_USAGE = ['digitalSignature', 'contentCommitment', 'keyEncipherment', 'dataEncipherment', 'keyAgreement', 'keyCertSign', 'cRLSign', 'encipherOnly', 'decipherOnly']

const CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521', secp256k1: 'secp256k1', secp224r1: 'P-224' }

const OID = {
  subjectAltName: '2.5.29.17',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  basicConstraints: '2.5.29.19',
  subjectKeyId: '2.5.29.14',
  authorityKeyId: '2.5.29.35',
  crlDistributionPoints: '2.5.29.31',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
  sctList: '1.3.6.1.4.1.11129.2.4.2',
  tlsFeature: '1.3.6.1.5.5.7.1.24',
  ocsp: '1.3.6.1.5.5.7.48.1',
  caIssuers: '1.3.6.1.5.5.7.48.2',
} as const

function text(node: Node): string {
  const raw = bytes(node)
  if (node.type === TYPE.BMPSTRING) {
    const swapped = Buffer.from(raw)
    swapped.swap16()
    return swapped.toString('utf16le')
  }
  return node.type === TYPE.UTF8 ? raw.toString('utf8') : raw.toString('latin1')
}

function parseName(name: Node): NameInfo {
  const parts: Array<[string, string]> = []
  for (const rdn of children(name)) {
    for (const attribute of children(rdn)) {
      const [type, value] = children(attribute)
      const key = oid(type)
      parts.push([NAME_ATTRIBUTES[key] ?? key, text(value!)])
    }
  }
  const first = (k: string) => parts.find(([t]) => t === k)?.[1] ?? null
  const escape = (v: string) => v.replace(/([,+"\\<>;])/g, '\\$1')
  return {
    text: [...parts].reverse().map(([t, v]) => `${t}=${escape(v)}`).join(', '),
    common_name: first('CN'),
    organization: first('O'),
    organizational_unit: first('OU'),
    country: first('C'),
  }
}

function ipText(b: Buffer): string {
  if (b.length === 4) return [...b].join('.')
  if (b.length === 16) {
    const groups: string[] = []
    for (let i = 0; i < 16; i += 2) groups.push(b.readUInt16BE(i).toString(16))
    // RFC 5952: compress the longest run of zero groups.
    let best = -1
    let bestLength = 1
    for (let i = 0; i < 8; ) {
      if (groups[i] !== '0') {
        i++
        continue
      }
      let j = i
      while (j < 8 && groups[j] === '0') j++
      if (j - i > bestLength) {
        best = i
        bestLength = j - i
      }
      i = j
    }
    if (best < 0) return groups.join(':')
    return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLength).join(':')}`
  }
  return b.toString('hex')
}

function generalNames(list: Node[], into: CertificateDetails['sans']): void {
  for (const name of list) {
    if (isContext(name, 2)) into.dns.push(bytes(name).toString('latin1').toLowerCase())
    else if (isContext(name, 7)) into.ip.push(ipText(bytes(name)))
    else if (isContext(name, 1)) into.email.push(bytes(name).toString('latin1'))
    else if (isContext(name, 6)) into.uri.push(bytes(name).toString('latin1'))
  }
}

function uris(list: Node[]): string[] {
  const found: CertificateDetails['sans'] = { dns: [], ip: [], email: [], uri: [] }
  generalNames(list, found)
  return found.uri
}

function countScts(extnValue: Buffer): number {
  // The extension value is an OCTET STRING holding the TLS-encoded list (RFC 6962 §3.3).
  const list = bytes(parseDer(extnValue))
  let n = 0
  for (let at = 2; at + 2 <= list.length; at += 2 + list.readUInt16BE(at)) n++
  return n
}

/** `now`: the service clock's instant, against which validity and days left are judged. */
export function parseCertificate(der: Buffer, now: Date): CertificateDetails {
  const x509 = new X509Certificate(der)
  const [tbs, signatureAlgorithm] = children(parseDer(der))
  const fields = children(tbs)
  let i = 0
  const version = isContext(fields[0], 0) ? integer(children(fields[i++])[0]) + 1 : 1
  const serial = integerHex(fields[i++])
  i++ // signature algorithm inside the TBS (the outer one is authoritative)
  const issuer = parseName(fields[i++]!)
  const [notBeforeNode, notAfterNode] = children(fields[i++])
  const subject = parseName(fields[i++]!)
  i++ // subjectPublicKeyInfo: read through X509Certificate
  const extensionsNode = fields.slice(i).find((f) => isContext(f, 3))

  const details: CertificateDetails = {
    subject,
    issuer,
    serial_number: serial,
    version,
    sans: { dns: [], ip: [], email: [], uri: [] },
    not_before: '',
    not_after: '',
    validity_days: 0,
    days_left: 0,
    expired: false,
    not_yet_valid: false,
    public_key: { type: 'unknown', bits: null, curve: null },
    signature_algorithm: { name: '', oid: '', hash: null, weak: false },
    fingerprint_sha1: x509.fingerprint,
    fingerprint_sha256: x509.fingerprint256,
    key_usage: [],
    extended_key_usage: [],
    basic_constraints: null,
    aia: { ocsp: [], ca_issuers: [] },
    crl_distribution_points: [],
    sct_count: 0,
    must_staple: false,
    subject_key_id: null,
    authority_key_id: null,
    self_signed: false,
    pem: x509.toString(),
  }

  const notBefore = time(notBeforeNode)
  const notAfter = time(notAfterNode)
  const day = 86_400_000
  details.not_before = notBefore.toISOString()
  details.not_after = notAfter.toISOString()
  details.validity_days = Math.round((notAfter.getTime() - notBefore.getTime()) / day)
  details.days_left = Math.floor((notAfter.getTime() - now.getTime()) / day)
  details.expired = now.getTime() > notAfter.getTime()
  details.not_yet_valid = now.getTime() < notBefore.getTime()

  const sigOid = oid(children(signatureAlgorithm)[0])
  const [sigName, hash] = SIGNATURES[sigOid] ?? [sigOid, null]
  details.signature_algorithm = { name: sigName, oid: sigOid, hash, weak: hash === 'SHA-1' || hash === 'MD5' || hash === 'MD2' }

  const key = x509.publicKey
  const keyType = key.asymmetricKeyType ?? 'unknown'
  const keyDetails = key.asymmetricKeyDetails ?? {}
  details.public_key = {
    type: keyType === 'rsa' || keyType === 'rsa-pss' ? 'RSA' : keyType === 'ec' ? 'EC' : keyType === 'ed25519' ? 'Ed25519' : keyType === 'ed448' ? 'Ed448' : keyType === 'dsa' ? 'DSA' : keyType,
    bits: keyDetails.modulusLength ?? (keyType === 'ec' ? ecBits(keyDetails.namedCurve) : keyType === 'ed25519' ? 256 : keyType === 'ed448' ? 456 : null),
    curve: keyDetails.namedCurve ? (CURVES[keyDetails.namedCurve] ?? keyDetails.namedCurve) : null,
  }

  for (const extension of extensionsNode ? children(children(extensionsNode)[0]) : []) {
    const parts = children(extension)
    const id = oid(parts[0])
    const critical = isUniversal(parts[1], TYPE.BOOLEAN) && bytes(parts[1])[0] !== 0
    const value = bytes(parts.at(-1))
    try {
      switch (id) {
        case OID.subjectAltName:
          generalNames(children(parseDer(value)), details.sans)
          break
        case OID.keyUsage: {
          const bits = bitString(parseDer(value))
          details.key_usage = KEY_USAGE.filter((_, bit) => ((bits.bytes[bit >> 3] ?? 0) & (0x80 >> (bit & 7))) !== 0)
          break
        }
        case OID.extKeyUsage:
          details.extended_key_usage = children(parseDer(value)).map((n) => EKU[oid(n)] ?? oid(n))
          break
        case OID.basicConstraints: {
          const items = children(parseDer(value))
          const ca = isUniversal(items[0], TYPE.BOOLEAN) && bytes(items[0])[0] !== 0
          const pathNode = items.find((n) => isUniversal(n, TYPE.INTEGER))
          details.basic_constraints = { ca, path_length: pathNode ? integer(pathNode) : null, critical }
          break
        }
        case OID.subjectKeyId:
          details.subject_key_id = bytes(parseDer(value)).toString('hex')
          break
        case OID.authorityKeyId: {
          const keyId = children(parseDer(value)).find((n) => isContext(n, 0))
          details.authority_key_id = keyId ? bytes(keyId).toString('hex') : null
          break
        }
        case OID.authorityInfoAccess:
          for (const access of children(parseDer(value))) {
            const [method, location] = children(access)
            const where = uris([location!])
            if (oid(method) === OID.ocsp) details.aia.ocsp.push(...where)
            else if (oid(method) === OID.caIssuers) details.aia.ca_issuers.push(...where)
          }
          break
        case OID.crlDistributionPoints:
          for (const point of children(parseDer(value))) {
            const name = children(point).find((n) => isContext(n, 0))
            const full = name ? children(name).find((n) => isContext(n, 0)) : undefined
            if (full) details.crl_distribution_points.push(...uris(children(full)))
          }
          break
        case OID.sctList:
          details.sct_count = countScts(value)
          break
        case OID.tlsFeature:
          details.must_staple = children(parseDer(value)).some((n) => integer(n) === 5)
          break
      }
    } catch {
      // A malformed extension is reported as absent rather than failing the whole certificate.
    }
  }

  details.self_signed = isSelfSigned(x509)
  return details
}

function ecBits(curve: string | undefined): number | null {
  if (!curve) return null
  const m = /(\d{3})/.exec(curve)
  return m ? Number(m[1]) : null
}
