// ASNs no registry delegates (IANA "Special-Purpose AS Numbers"): asking an RIR
// about them is pointless, and the caller deserves to know why.

const SPECIAL: ReadonlyArray<{ lo: number; hi: number; name: string }> = [
  { lo: 0, hi: 0, name: 'reserved (RFC 7607)' },
  { lo: 23456, hi: 23456, name: 'AS_TRANS, the 2-byte stand-in for 4-byte ASNs (RFC 6793)' },
  { lo: 64496, hi: 64511, name: 'reserved for documentation (RFC 5398)' },
  { lo: 64512, hi: 65534, name: 'reserved for private use (RFC 6996)' },
  { lo: 65535, hi: 65535, name: 'reserved (RFC 7300)' },
  { lo: 65536, hi: 65551, name: 'reserved for documentation (RFC 5398)' },
  { lo: 4_200_000_000, hi: 4_294_967_294, name: 'reserved for private use (RFC 6996)' },
  { lo: 4_294_967_295, hi: 4_294_967_295, name: 'reserved (RFC 7300)' },
]

export function specialAsn(asn: number): string | null {
  return SPECIAL.find((s) => s.lo <= asn && asn <= s.hi)?.name ?? null
}
