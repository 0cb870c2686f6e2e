import { createHash, generateKeyPairSync, sign, X509Certificate } from 'node:crypto'
import type { KeyObject } from 'node:crypto'
import { isIP } from 'node:net'
import forge from 'node-forge'

// Certificates for the loopback TLS servers: X.509 v3 written with node-forge's
// ASN.1 builder and signed with node:crypto (forge's own certificate API knows
// only RSA keys; the tests also need ECDSA, SHA-1 signatures, 1024-bit RSA, SCT
// lists, must-staple, AIA and CRL extensions). Also a DER OCSP response, for
// servers that staple one.

const { Class, Type } = forge.asn1
type Asn1 = forge.asn1.Asn1

const create = forge.asn1.create
const seq = (items: Asn1[]) => create(Class.UNIVERSAL, Type.SEQUENCE, true, items)
const set = (items: Asn1[]) => create(Class.UNIVERSAL, Type.SET, true, items)
const oid = (id: string) => create(Class.UNIVERSAL, Type.OID, false, forge.asn1.oidToDer(id).getBytes())
const bin = (b: Buffer) => b.toString('binary')
const octets = (b: Buffer) => create(Class.UNIVERSAL, Type.OCTETSTRING, false, bin(b))
const bits = (b: Buffer, unused = 0) => create(Class.UNIVERSAL, Type.BITSTRING, false, String.fromCharCode(unused) + bin(b))
const bool = (v: boolean) => create(Class.UNIVERSAL, Type.BOOLEAN, false, v ? '\xff' : '\x00')
const nul = () => create(Class.UNIVERSAL, Type.NULL, false, '')
const utf8 = (s: string) => create(Class.UNIVERSAL, Type.UTF8, false, forge.util.encodeUtf8(s))
const printable = (s: string) => create(Class.UNIVERSAL, Type.PRINTABLESTRING, false, s)
const ia5 = (tag: number, s: string) => create(Class.CONTEXT_SPECIFIC, tag, false, s)
const explicit = (tag: number, inner: Asn1) => create(Class.CONTEXT_SPECIFIC, tag, true, [inner])
const enumerated = (n: number) => create(Class.UNIVERSAL, Type.ENUMERATED, false, String.fromCharCode(n))

function integer(hex: string): Asn1 {
  let b = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex')
  if (b[0]! & 0x80) b = Buffer.concat([Buffer.from([0]), b])
  return create(Class.UNIVERSAL, Type.INTEGER, false, bin(b))
}

function time(date: Date): Asn1 {
  return date.getUTCFullYear() < 2050
    ? create(Class.UNIVERSAL, Type.UTCTIME, false, forge.asn1.dateToUtcTime(date))
    : create(Class.UNIVERSAL, Type.GENERALIZEDTIME, false, forge.asn1.dateToGeneralizedTime(date))
}

const der = (node: Asn1) => Buffer.from(forge.asn1.toDer(node).getBytes(), 'binary')
const fromDer = (b: Buffer) => (forge.asn1.fromDer as unknown as (b: string, o: object) => Asn1)(bin(b), { decodeBitStrings: false })

export type KeySpec = { type: 'rsa'; bits: number } | { type: 'ec'; curve: 'P-256' | 'P-384' }

export interface KeyPair {
  spec: KeySpec
  privateKey: KeyObject
  publicKey: KeyObject
  /** PEM, for node:tls servers. */
  pem: string
}

const keyCache = new Map<string, KeyPair>()

/** A key pair; the same spec gives the same (cached) key within a process, which keeps setup fast. */
export function keyPair(spec: KeySpec = { type: 'rsa', bits: 2048 }, fresh = false): KeyPair {
  const id = JSON.stringify(spec)
  const known = keyCache.get(id)
  if (known && !fresh) return known
  const pair =
    spec.type === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: spec.bits })
      : generateKeyPairSync('ec', { namedCurve: spec.curve === 'P-256' ? 'prime256v1' : 'secp384r1' })
  const made = { spec, privateKey: pair.privateKey, publicKey: pair.publicKey, pem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string }
  if (!fresh) keyCache.set(id, made)
  return made
}

export interface NameSpec {
  cn: string
  o?: string
  c?: string
}

export interface CertSpec {
  subject: NameSpec
  /** Omitted: self-signed. */
  issuer?: Issued
  key?: KeyPair
  serial?: string
  notBefore?: Date
  notAfter?: Date
  ca?: boolean
  pathLength?: number
  dns?: string[]
  ips?: string[]
  hash?: 'sha256' | 'sha1' | 'sha384'
  ocspUrl?: string
  caIssuersUrl?: string
  crlUrls?: string[]
  /** Embed an SCT list extension with this many (structurally valid, unsigned) entries. */
  scts?: number
  mustStaple?: boolean
}

export interface Issued {
  spec: CertSpec
  der: Buffer
  pem: string
  x509: X509Certificate
  key: KeyPair
  name: Asn1
  keyId: Buffer
  serial: string
}

function name(spec: NameSpec): Asn1 {
  const rdns: Asn1[] = []
  if (spec.c) rdns.push(set([seq([oid('2.5.4.6'), printable(spec.c)])]))
  if (spec.o) rdns.push(set([seq([oid('2.5.4.10'), utf8(spec.o)])]))
  rdns.push(set([seq([oid('2.5.4.3'), utf8(spec.cn)])]))
  return seq(rdns)
}

function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number))
  const [head, tail] = ip.split('::') as [string, string | undefined]
  const h = head ? head.split(':') : []
  const t = tail ? tail.split(':') : []
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t]
  const out = Buffer.alloc(16)
  groups.forEach((g, i) => out.writeUInt16BE(Number.parseInt(g, 16), i * 2))
  return out
}

function extension(id: string, critical: boolean, value: Asn1 | Buffer): Asn1 {
  const body = Buffer.isBuffer(value) ? value : der(value)
  return seq(critical ? [oid(id), bool(true), octets(body)] : [oid(id), octets(body)])
}

function sctList(count: number): Buffer {
  const entries = Array.from({ length: count }, (_, i) => {
    const sct = Buffer.concat([
      Buffer.from([0]), // v1
      createHash('sha256').update(`test log ${i}`).digest(), // log id
      Buffer.from([0, 0, 1, 0x8c, 0, 0, 0, i]), // timestamp
      Buffer.from([0, 0]), // no extensions
      Buffer.from([4, 3, 0, 2, 0x30, 0]), // sha256/ecdsa, a 2-byte stand-in signature
    ])
    return Buffer.concat([Buffer.from([sct.length >> 8, sct.length & 0xff]), sct])
  })
  const list = Buffer.concat(entries)
  return der(octets(Buffer.concat([Buffer.from([list.length >> 8, list.length & 0xff]), list])))
}

function signatureAlgorithm(key: KeyPair, hash: string): Asn1 {
  if (key.spec.type === 'ec') {
    const ids: Record<string, string> = { sha1: '1.2.840.10045.4.1', sha256: '1.2.840.10045.4.3.2', sha384: '1.2.840.10045.4.3.3' }
    return seq([oid(ids[hash]!)])
  }
  const ids: Record<string, string> = { sha1: '1.2.840.113549.1.1.5', sha256: '1.2.840.113549.1.1.11', sha384: '1.2.840.113549.1.1.12' }
  return seq([oid(ids[hash]!), nul()])
}

let serialCounter = 0x1000

export function issue(spec: CertSpec): Issued {
  const key = spec.key ?? keyPair()
  const signer = spec.issuer?.key ?? key
  const hash = spec.hash ?? 'sha256'
  const serial = spec.serial ?? (serialCounter++).toString(16) + createHash('sha1').update(spec.subject.cn).digest('hex').slice(0, 12)
  const spki = key.publicKey.export({ type: 'spki', format: 'der' })
  const keyId = createHash('sha1').update(spki).digest()
  const subjectName = name(spec.subject)
  const issuerName = spec.issuer?.name ?? subjectName
  const now = Date.now()
  const ca = spec.ca ?? false

  const extensions: Asn1[] = [
    extension('2.5.29.19', true, seq(ca ? [bool(true), ...(spec.pathLength !== undefined ? [integer(spec.pathLength.toString(16))] : [])] : [])),
    // keyCertSign+cRLSign for CAs; digitalSignature+keyEncipherment for leaves (bit order from the left).
    extension('2.5.29.15', true, ca ? bits(Buffer.from([0x06]), 1) : bits(Buffer.from([0xa0]), 5)),
    extension('2.5.29.14', false, octets(keyId)),
  ]
  if (spec.issuer) extensions.push(extension('2.5.29.35', false, seq([ia5(0, bin(spec.issuer.keyId))])))
  if (!ca) extensions.push(extension('2.5.29.37', false, seq([oid('1.3.6.1.5.5.7.3.1'), oid('1.3.6.1.5.5.7.3.2')])))
  const sans = [...(spec.dns ?? []).map((d) => ia5(2, d)), ...(spec.ips ?? []).map((ip) => ia5(7, bin(ipBytes(ip))))]
  if (sans.length) extensions.push(extension('2.5.29.17', false, seq(sans)))
  const access: Asn1[] = []
  if (spec.ocspUrl) access.push(seq([oid('1.3.6.1.5.5.7.48.1'), ia5(6, spec.ocspUrl)]))
  if (spec.caIssuersUrl) access.push(seq([oid('1.3.6.1.5.5.7.48.2'), ia5(6, spec.caIssuersUrl)]))
  if (access.length) extensions.push(extension('1.3.6.1.5.5.7.1.1', false, seq(access)))
  if (spec.crlUrls?.length) {
    extensions.push(extension('2.5.29.31', false, seq(spec.crlUrls.map((u) => seq([explicit(0, create(Class.CONTEXT_SPECIFIC, 0, true, [ia5(6, u)]))])))))
  }
  if (spec.scts) extensions.push(extension('1.3.6.1.4.1.11129.2.4.2', false, sctList(spec.scts)))
  if (spec.mustStaple) extensions.push(extension('1.3.6.1.5.5.7.1.24', false, seq([integer('05')])))

  const tbs = seq([
    explicit(0, integer('02')),
    integer(serial),
    signatureAlgorithm(signer, hash),
    issuerName,
    seq([time(spec.notBefore ?? new Date(now - 86_400_000)), time(spec.notAfter ?? new Date(now + 90 * 86_400_000))]),
    subjectName,
    fromDer(spki),
    explicit(3, seq(extensions)),
  ])
  const tbsDer = der(tbs)
  const signature = sign(hash, tbsDer, signer.privateKey)
  const certDer = der(seq([fromDer(tbsDer), signatureAlgorithm(signer, hash), bits(signature)]))
  const x509 = new X509Certificate(certDer)
  return { spec, der: certDer, pem: x509.toString(), x509, key, name: subjectName, keyId, serial }
}

/**
 * A signed OCSP response (RFC 6960) about `cert`, from its issuer as responder,
 * as a server staples it.
 */
export function ocspResponse(cert: Issued, issuer: Issued, status: 'good' | 'revoked' = 'good', validHours = 24, now = Date.now()): Buffer {
  const issuerNameHash = createHash('sha1').update(der(issuer.name)).digest()
  const issuerKey = fromDer(issuer.key.publicKey.export({ type: 'spki', format: 'der' }))
  const keyBits = Buffer.from((issuerKey.value as Asn1[])[1]!.value as string, 'binary').subarray(1)
  const issuerKeyHash = createHash('sha1').update(keyBits).digest()
  const certId = seq([seq([oid('1.3.14.3.2.26'), nul()]), octets(issuerNameHash), octets(issuerKeyHash), integer(cert.serial)])
  const certStatus = status === 'good' ? create(Class.CONTEXT_SPECIFIC, 0, false, '') : create(Class.CONTEXT_SPECIFIC, 1, true, [time(new Date(now - 3_600_000))])
  const single = seq([certId, certStatus, generalized(new Date(now - 60_000)), explicit(0, generalized(new Date(now + validHours * 3_600_000)))])
  const tbs = seq([explicit(2, octets(issuerKeyHash)), generalized(new Date(now)), seq([single])])
  const tbsDer = der(tbs)
  const signature = sign('sha256', tbsDer, issuer.key.privateKey)
  const basic = seq([fromDer(tbsDer), signatureAlgorithm(issuer.key, 'sha256'), bits(signature)])
  return der(seq([enumerated(0), explicit(0, seq([oid('1.3.6.1.5.5.7.48.1.1'), octets(der(basic))]))]))
}

function generalized(date: Date): Asn1 {
  return create(Class.UNIVERSAL, Type.GENERALIZEDTIME, false, forge.asn1.dateToGeneralizedTime(date))
}
