// The order that sorts VRP columns, by LSD radix passes over an index array: no
// comparator calls (Array#sort with one costs ~300 ms for 500k VRPs here, these
// passes a few ms each). Each pass is a stable counting sort on a 16- or 8-bit
// digit; a pass whose digit is the same for every entry is skipped (the low IPv6
// words are almost always zero).

const counts = new Uint32Array(65536)

function pass(order: Uint32Array, scratch: Uint32Array, n: number, digit: (i: number) => number, radix: number): boolean {
  counts.fill(0, 0, radix)
  for (let i = 0; i < n; i++) {
    const d = digit(order[i] as number)
    counts[d] = (counts[d] as number) + 1
  }
  for (let d = 0; d < radix; d++) if (counts[d] === n) return false
  let sum = 0
  for (let d = 0; d < radix; d++) {
    const c = counts[d] as number
    counts[d] = sum
    sum += c
  }
  for (let i = 0; i < n; i++) {
    const v = order[i] as number
    const d = digit(v)
    const at = counts[d] as number
    counts[d] = at + 1
    scratch[at] = v
  }
  return true
}

/** Sorts `order` by a 32-bit key column (stride words per entry, word `offset`). */
export function sortByWord(order: Uint32Array, scratch: Uint32Array, n: number, keys: Uint32Array, stride: number, offset: number): [Uint32Array, Uint32Array] {
  let a = order
  let b = scratch
  if (pass(a, b, n, (i) => (keys[i * stride + offset] as number) & 0xffff, 65536)) [a, b] = [b, a]
  if (pass(a, b, n, (i) => (keys[i * stride + offset] as number) >>> 16, 65536)) [a, b] = [b, a]
  return [a, b]
}

/** Sorts `order` by an 8-bit key column. */
export function sortByByte(order: Uint32Array, scratch: Uint32Array, n: number, keys: Uint8Array): [Uint32Array, Uint32Array] {
  return pass(order, scratch, n, (i) => keys[i] as number, 256) ? [scratch, order] : [order, scratch]
}
