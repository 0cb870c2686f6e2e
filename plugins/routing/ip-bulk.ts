import { setImmediate as nextTurn } from 'node:timers/promises'
import type { z } from 'zod'
import { ClientClosedError, PayloadTooLargeError, UnavailableError } from '../../runtime/errors.ts'
import type { AnswerData } from '../../runtime/define-plugin.ts'
import { JsonBytes } from '../../runtime/json-bytes.ts'
import type { Emit } from '../../runtime/streamed.ts'
import type { IpBulkData } from '../../registry/network/schemas/ip-bulk-data.ts'
import { IP_BULK_MAX_ENTRIES } from '../../registry/network/schemas/ip-bulk-data.ts'
import type { BulkResult, IpDataSets, RouteJudge } from '../network/surface.ts'
import { defineBulkLookup } from '../network/surface.ts'
import type { VrpIndex } from './rpki/vrp-index.ts'
import { stateName } from './rpki/vrp-index.ts'
import type { LoadedVrps, VrpStore } from './rpki/vrp-store.ts'
import { vrpSetInfo } from './vrp-set-info.ts'

// POST /api/ip/bulk: the network plugin's bulk lookup (ASN, organization,
// country, class, bogon, prefix) per address, plus the RPKI state of (prefix,
// origin) from the VRP set in hand. Pure computation on data in memory, ~1 µs an
// address; it runs on the event loop in slices of SLICE addresses with a turn of
// the loop between them, so other requests are answered while a 100,000-address
// list is worked through (bench/RESULTS-network.md, "ip/bulk": why not the CPU
// pool). The slices are also the NDJSON chunks.

/** Addresses per slice: ~2-4 ms of work, the longest the event loop is held for at a time. */
export const SLICE = 2_000
/** Addresses per window of an NDJSON answer after the first (a window's lines go out when it is done). */
export const STREAM_WINDOW = 20_000

export type IpBulkAnswer = AnswerData<z.input<typeof IpBulkData>>

/** The price: 1 unit per 1,000 addresses, rounded up; past the bound a 413 (charged as a refusal). */
export function ipBulkCost(entries: number): number {
  if (entries > IP_BULK_MAX_ENTRIES) {
    throw new PayloadTooLargeError(
      `The list has ${entries.toLocaleString('en-US')} entries; /api/ip/bulk takes at most ${IP_BULK_MAX_ENTRIES.toLocaleString('en-US')} per request. Split it.`,
      { max_entries: IP_BULK_MAX_ENTRIES, entries },
    )
  }
  return Math.ceil(entries / 1000)
}

/** The RPKI state of routes against one VRP index (bench/ip-bulk-lookup.bench.ts uses it as the service does). */
export function defineRouteJudge(index: VrpIndex): RouteJudge {
  const words = new Uint32Array(4)
  return (version, network, length, origin) => {
    if (version === 4) return stateName(index.validate4(network as number, length, origin))
    const value = network as bigint
    words[0] = Number(value >> 96n)
    words[1] = Number((value >> 64n) & 0xffffffffn)
    words[2] = Number((value >> 32n) & 0xffffffffn)
    words[3] = Number(value & 0xffffffffn)
    return stateName(index.validate6(words, 0, length, origin))
  }
}

function judgeOf(set: LoadedVrps | null): RouteJudge | undefined {
  return set === null ? undefined : defineRouteJudge(set.index)
}

/** A turn of the event loop between slices; a client gone meanwhile ends the work. */
async function turn(signal: AbortSignal): Promise<void> {
  await nextTurn()
  if (signal.aborted) throw new ClientClosedError()
}

export interface IpBulkDeps {
  ipData: { get(): Promise<IpDataSets> }
  vrps: VrpStore
}

/** Lookups made per data set (a reload of the operator's files is a new object). */
const lookups = new WeakMap<IpDataSets, ReturnType<typeof defineBulkLookup>>()

export async function ipBulk(deps: IpBulkDeps, entries: readonly unknown[], emit: Emit | undefined, signal: AbortSignal): Promise<IpBulkAnswer | undefined> {
  const data = await deps.ipData.get().catch((error: unknown) => {
    throw new UnavailableError(`The offline ASN and country data is not available: ${(error as Error).message}`, { data: 'ip-data' })
  })
  let lookup = lookups.get(data)
  if (lookup === undefined) {
    lookup = defineBulkLookup(data)
    lookups.set(data, lookup)
  }
  // One VRP set for the whole list, even if a refresh swaps it in meanwhile.
  const set = deps.vrps.current()
  const judge = judgeOf(set)
  if (emit?.lines) {
    // Streamed as plain lines: the list in windows, each a batch (lookups in
    // address order) written as NDJSON bytes. The first window is one slice, so
    // the first lines go out as soon as with objects; later ones are larger,
    // since the address order pays off with more addresses per window.
    for (let from = 0, size = SLICE; from < entries.length; from += size, size = STREAM_WINDOW) {
      if (from > 0) await turn(signal)
      const out = new JsonBytes()
      const batch = lookup.batch(entries.slice(from, from + size), judge)
      for (const _ of batch.steps(SLICE, out, 0x0a)) await turn(signal)
      out.byte(0x0a)
      const wait = emit.lines(out.finish().chunks)
      // A slow reader of the stream holds the next window back.
      if (wait) await wait
    }
    return undefined
  }
  if (emit) {
    // Streamed with each line shaped (fields=): one object per address, a slice at a time, in the list's order.
    for (let from = 0; from < entries.length; from += SLICE) {
      if (from > 0) await turn(signal)
      let wait: Promise<void> | undefined
      for (let i = from, to = Math.min(entries.length, from + SLICE); i < to; i++) wait = emit(lookup(entries[i], judge)) ?? wait
      // A slow reader of the stream holds the next slice back.
      if (wait) await wait
    }
    return undefined
  }
  // Nobody streams: the results are written as JSON bytes straight from the
  // lookups (runtime/json-bytes.ts), no object per address, the lookups in
  // address order (plugins/network/bulk-batch.ts); formats and controls that
  // need the objects get them decoded (descriptor `preEncoded`).
  const out = new JsonBytes()
  out.byte(0x5b)
  const batch = lookup.batch(entries, judge)
  for (const _ of batch.steps(SLICE, out)) await turn(signal)
  out.byte(0x5d)
  const valid = batch.valid
  return {
    count: entries.length,
    valid,
    invalid: entries.length - valid,
    results: out.finish(),
    rpki: set
      ? { loaded: true, vrps: set.index.stats.vrps, generated_at: set.generatedAt, age_seconds: vrpSetInfo(deps.vrps, set).age_seconds }
      : { loaded: false, vrps: null, generated_at: null, age_seconds: null },
    data_source: {
      asn: `${data.sources.asn.name} ${data.sources.asn.version ?? data.sources.asn.date}`.trim(),
      country: `${data.sources.country.name} ${data.sources.country.version ?? data.sources.country.date}`.trim(),
    },
  }
}
