import { random } from './random-prefixes.ts'

// The address list the ip/bulk benchmarks send: 90 % random unicast IPv4, 10 %
// IPv6 under 2000::/4, one bad line in 500, from a seed (the same list each run).
export function bulkAddresses(n: number, seed: number): string[] {
  // random() gives uint32s; scaled to [0, 1) here. (Until 2026-11-26 they were used
  // unscaled, so every "address" was four huge numbers: the bench measured 100k
  // invalid lines, each answered with the reason it is not an address.)
  const uint32 = random(seed)
  const next = () => uint32() / 2 ** 32
  const out: string[] = []
  for (let i = 0; i < n; i++) {
    const r = next()
    if (i % 500 === 499) out.push(`10.0.0.${256 + (i % 100)}`)
    else if (r < 0.1) {
      const words = Array.from({ length: 8 }, (_, k) => (k === 0 ? 0x2000 + Math.floor(next() * 0xfff) : Math.floor(next() * 0x10000)).toString(16))
      out.push(words.join(':'))
    } else {
      // Unicast IPv4: first octet 1-223.
      const a = 1 + Math.floor(next() * 223)
      out.push(`${a}.${Math.floor(next() * 256)}.${Math.floor(next() * 256)}.${Math.floor(next() * 256)}`)
    }
  }
  return out
}
