/** mulberry32: small, fast, and the same sequence on every machine. */
export function random(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }
}

/**
 * n random IPv4 networks with prefix lengths 16-32 and host bits clear (python's
 * strict ip_network refuses set host bits), as in ../shared/notes/performance.md.
 */
export function randomPrefixes(n: number, seed: number): string[] {
  const next = random(seed)
  const out = new Array<string>(n)
  for (let i = 0; i < n; i++) {
    const len = 16 + (next() % 17)
    const a = (next() & (0xffffffff << (32 - len))) >>> 0
    out[i] = `${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}/${len}`
  }
  return out
}

/**
 * n random IPv6 networks inside 2001::/16 with prefix lengths 32-128, host bits
 * clear. No target is set for IPv6; this keeps its cost visible.
 */
export function randomIpv6Prefixes(n: number, seed: number): string[] {
  const next = random(seed)
  const hex = (x: number): string => x.toString(16)
  const out = new Array<string>(n)
  for (let i = 0; i < n; i++) {
    const len = 32 + (next() % 97)
    const groups = [0x2001, next() & 0xffff]
    for (let k = 0; k < 3; k++) {
      const w = next()
      groups.push(w >>> 16, w & 0xffff)
    }
    // Clear host bits group by group.
    for (let g = 0; g < 8; g++) {
      const keep = Math.max(0, Math.min(16, len - 16 * g))
      groups[g] = keep === 0 ? 0 : (groups[g] as number) & ((0xffff << (16 - keep)) & 0xffff)
    }
    out[i] = `${groups.map(hex).join(':')}/${len}`
  }
  return out
}
