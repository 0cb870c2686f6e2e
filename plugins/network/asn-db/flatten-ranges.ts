/**
 * Makes overlapping ranges disjoint so a lookup can binary-search starts alone.
 *
 * The rule: where ranges overlap, the one that starts later wins (for equal starts,
 * the shorter one), because that is the more specific announcement or registration;
 * an enclosing range keeps the parts before and after it. The packaged IPv4 CSV has
 * one such pair (215.0.0.0/16 inside a wider DoD range), which its README warns
 * about; without this a lookup could miss the enclosing range entirely.
 */
export interface KeyOps<K> {
  less(a: K, b: K): boolean
  /** k + 1 */
  succ(k: K): K
  /** k - 1 */
  pred(k: K): K
}

/**
 * Walks rows in `order` (sorted by start, equal starts longest first) and calls
 * `emit` with disjoint inclusive pieces in address order, each naming its source row.
 */
export function flattenRanges<K>(
  order: ArrayLike<number>,
  start: (row: number) => K,
  end: (row: number) => K,
  ops: KeyOps<K>,
  emit: (from: K, to: K, row: number) => void,
): void {
  const open: number[] = []
  // First key not emitted yet; undefined before the first piece.
  let cursor: K | undefined
  const piece = (row: number, to: K): void => {
    const s = start(row)
    const from = cursor !== undefined && ops.less(s, cursor) ? cursor : s
    if (ops.less(to, from)) return
    emit(from, to, row)
    cursor = ops.succ(to)
  }
  for (let i = 0; i < order.length; i++) {
    const row = order[i] as number
    const s = start(row)
    while (open.length > 0 && ops.less(end(open[open.length - 1] as number), s)) {
      const top = open.pop() as number
      piece(top, end(top))
    }
    // The enclosing range (if any) owns everything up to where this one begins.
    if (open.length > 0) piece(open[open.length - 1] as number, ops.pred(s))
    open.push(row)
  }
  while (open.length > 0) {
    const top = open.pop() as number
    piece(top, end(top))
  }
}

/** Row order for flattenRanges: by start, and longest first among equal starts. */
export function rangeOrder<K>(count: number, start: (row: number) => K, end: (row: number) => K, ops: KeyOps<K>): number[] {
  const order = Array.from({ length: count }, (_, i) => i)
  return order.sort((a, b) => {
    const sa = start(a)
    const sb = start(b)
    if (ops.less(sa, sb)) return -1
    if (ops.less(sb, sa)) return 1
    const ea = end(a)
    const eb = end(b)
    return ops.less(eb, ea) ? -1 : ops.less(ea, eb) ? 1 : a - b
  })
}

export const NUMBER_KEYS: KeyOps<number> = {
  less: (a, b) => a < b,
  succ: (k) => k + 1,
  pred: (k) => k - 1,
}

export const BIGINT_KEYS: KeyOps<bigint> = {
  less: (a, b) => a < b,
  succ: (k) => k + 1n,
  pred: (k) => k - 1n,
}
