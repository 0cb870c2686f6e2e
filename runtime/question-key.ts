import type { Call } from './call.ts'
import { canonicalJson } from './canonical-json.ts'

// The identity of a question: the endpoint and its validated, normalized input,
// as text (object keys sorted), never the format or shaping controls, which
// apply after the answer exists. Two calls with the same key ask the same thing:
// the cache stores answers under it and identical misses in flight share one
// resolver call by it.
//
// A question asked again by the same path and query has its input kept by the
// pipeline (runtime/pipeline.ts, recentInputs), and its key is kept with it:
// the text is built once, and every later request hands the store the same
// string, whose hash V8 has already computed. Built per request, the key and
// its hashing took ~0.5 µs of a ~35 µs DNS cache hit (bench/RESULTS.md).

/** The key of an endpoint's question with this input. */
export function inputKey(endpoint: string, input: unknown): string {
  return `${endpoint}\u0000${canonicalJson(input)}`
}

/**
 * The key of the call's question: kept with the recent input it was validated
 * from (made from that input, which no call ever holds, so nothing a layer or
 * resolver does to its own copy can change what the next call gets), or made
 * now.
 */
export function questionKey(call: Call): string {
  const recent = call.recent
  if (recent === undefined) return inputKey(call.endpoint.name, call.input)
  return (recent.key ??= inputKey(call.endpoint.name, recent.input))
}
