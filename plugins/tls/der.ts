import forge from 'node-forge'

// A thin layer over node-forge's ASN.1 DER reader for the certificate and OCSP
// fields node:crypto's X509Certificate does not expose: Buffers in and out
// instead of forge's binary strings, and helpers that throw on a shape mismatch.

export type Node = forge.asn1.Asn1

const { Class, Type } = forge.asn1

export function parseDer(bytes: Buffer): Node {
  // decodeBitStrings: false — key usage bits and signatures are BIT STRINGs that
  // would otherwise be guessed at as nested ASN.1.
  return (forge.asn1.fromDer as unknown as (b: string, o: object) => Node)(bytes.toString('binary'), { strict: true, parseAllBytes: true, decodeBitStrings: false })
}

export function toDer(node: Node): Buffer {
  return Buffer.from(forge.asn1.toDer(node).getBytes(), 'binary')
}

export function children(node: Node | undefined): Node[] {
  if (!node || !Array.isArray(node.value)) throw new Error('expected a constructed ASN.1 value')
  return node.value
}

export function bytes(node: Node | undefined): Buffer {
  if (!node || typeof node.value !== 'string') throw new Error('expected a primitive ASN.1 value')
  return Buffer.from(node.value, 'binary')
}

export function oid(node: Node | undefined): string {
  if (!node || node.type !== Type.OID || node.tagClass !== Class.UNIVERSAL) throw new Error('expected an OID')
  return forge.asn1.derToOid(node.value as string)
}

export function isContext(node: Node | undefined, tag: number): boolean {
  return node !== undefined && node.tagClass === Class.CONTEXT_SPECIFIC && node.type === tag
}

export function isUniversal(node: Node | undefined, type: number): boolean {
  return node !== undefined && node.tagClass === Class.UNIVERSAL && node.type === type
}

/** UTCTime or GeneralizedTime. */
export function time(node: Node | undefined): Date {
  if (isUniversal(node, Type.UTCTIME)) return forge.asn1.utcTimeToDate(node!.value as string)
  if (isUniversal(node, Type.GENERALIZEDTIME)) return forge.asn1.generalizedTimeToDate(node!.value as string)
  throw new Error('expected a time')
}

/** An INTEGER as lowercase hex without leading zero bytes (serial numbers). */
export function integerHex(node: Node | undefined): string {
  const b = bytes(node)
  let i = 0
  while (i < b.length - 1 && b[i] === 0) i++
  return b.subarray(i).toString('hex')
}

export function integer(node: Node | undefined): number {
  return Number.parseInt(integerHex(node) || '0', 16)
}

/** A BIT STRING's bits (the first byte counts the unused ones). */
export function bitString(node: Node | undefined): { bytes: Buffer; unused: number } {
  const b = bytes(node)
  return { unused: b[0] ?? 0, bytes: b.subarray(1) }
}

export const TYPE = Type
