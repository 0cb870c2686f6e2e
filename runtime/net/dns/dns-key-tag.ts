// RFC 4034 Appendix B: the key tag DS and RRSIG records use to point at a DNSKEY.

/** Key tag over DNSKEY RDATA (flags, protocol, algorithm, key). */
export function keyTag(rdata: Buffer): number {
  // Algorithm 1 (RSA/MD5) predates the checksum: its tag is bits 8-23 of the modulus end.
  if (rdata[3] === 1) {
    if (rdata.length < 7) return 0
    return rdata.readUInt16BE(rdata.length - 3)
  }
  let acc = 0
  for (let i = 0; i < rdata.length; i++) acc += i & 1 ? (rdata[i] as number) : (rdata[i] as number) << 8
  acc += (acc >> 16) & 0xffff
  return acc & 0xffff
}
