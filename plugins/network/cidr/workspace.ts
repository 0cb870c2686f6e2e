/**
 * Reusable scratch memory for summarize. Allocating (and zeroing) three fresh
 * Uint32Arrays and an output buffer per call was measured as tens of MB of
 * external garbage per 1M-entry call, which V8 reclaims lazily: peak RSS crept up
 * with every request. summarize is synchronous, so two calls can never use the
 * workspace at once; nothing it returns points into it (the result strings are
 * copies).
 *
 * Workspaces for very large calls are not kept, so one huge request does not pin
 * its memory for the life of the process.
 */
const KEEP_WORDS = 3 * (1 << 20)
const KEEP_BYTES = 32 << 20

let words = new Uint32Array(0)
let bytes = Buffer.alloc(0)

/** Three uint32 arrays of length n: starts, ends and radix-sort scratch. Contents are garbage. */
export function rangeWorkspace(n: number): [Uint32Array, Uint32Array, Uint32Array] {
  let w = words
  if (w.length < 3 * n) {
    w = new Uint32Array(3 * n)
    if (w.length <= KEEP_WORDS) words = w
  }
  return [w.subarray(0, n), w.subarray(n, 2 * n), w.subarray(2 * n, 3 * n)]
}

/** A byte buffer of at least `size` bytes (contents are garbage). */
export function byteWorkspace(size: number): Buffer {
  if (bytes.length >= size) return bytes
  const b = Buffer.allocUnsafeSlow(size)
  if (size <= KEEP_BYTES) bytes = b
  return b
}
