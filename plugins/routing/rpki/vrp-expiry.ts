import type { VrpColumns } from './vrp-columns.ts'
import type { ParsedVrps } from './vrp-json.ts'

// A VRP is only as good as the signed objects behind it: once its `expires`
// passes, a validator would no longer emit it, so neither may we validate with it
// — least of all when the source stopped refreshing and we keep the last good
// set. The store drops expired VRPs when a set is loaded and again whenever the
// earliest expiry of the kept ones passes.

export interface LiveVrps {
  /** The VRPs still valid at the given time (the same columns when none had expired). */
  parsed: ParsedVrps
  /** VRPs dropped because they had expired. */
  expired: number
  /** The earliest expiry among the kept VRPs, ms since the epoch; null when none of them expires. */
  nextExpiryAt: number | null
}

function filterFamily(c: VrpColumns, nowMs: number): { columns: VrpColumns; expired: number; next: number } {
  const exp = c.expires
  let expired = 0
  let next = Infinity
  for (let i = 0; i < c.n; i++) {
    const e = exp[i] as number
    if (e === 0) continue
    if (e * 1000 <= nowMs) expired++
    else if (e < next) next = e
  }
  if (expired === 0) return { columns: c, expired, next }
  const stride = c.family === 4 ? 1 : 4
  const n = c.n - expired
  const out: VrpColumns = {
    family: c.family,
    n,
    words: new Uint32Array(n * stride),
    len: new Uint8Array(n),
    maxLen: new Uint8Array(n),
    asn: new Uint32Array(n),
    ta: new Uint8Array(n),
    expires: new Uint32Array(n),
  }
  let j = 0
  for (let i = 0; i < c.n; i++) {
    const e = exp[i] as number
    if (e !== 0 && e * 1000 <= nowMs) continue
    for (let k = 0; k < stride; k++) out.words[j * stride + k] = c.words[i * stride + k] as number
    out.len[j] = c.len[i] as number
    out.maxLen[j] = c.maxLen[i] as number
    out.asn[j] = c.asn[i] as number
    out.ta[j] = c.ta[i] as number
    out.expires[j] = e
    j++
  }
  return { columns: out, expired, next }
}

/** The VRPs of `parsed` that have not expired at `nowMs`. One pass over the columns; copies only a family that lost VRPs. */
export function dropExpired(parsed: ParsedVrps, nowMs: number): LiveVrps {
  const v4 = filterFamily(parsed.v4, nowMs)
  const v6 = filterFamily(parsed.v6, nowMs)
  const next = Math.min(v4.next, v6.next)
  const expired = v4.expired + v6.expired
  return {
    parsed: expired === 0 ? parsed : { ...parsed, v4: v4.columns, v6: v6.columns },
    expired,
    nextExpiryAt: next === Infinity ? null : next * 1000,
  }
}
