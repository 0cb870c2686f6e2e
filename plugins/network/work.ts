import cidrExpand from '../../registry/network/cidr-expand.ts'
import cidrSummarize from '../../registry/network/cidr-summarize.ts'
import { defineWork, workResolver } from '../../runtime/cpu/define-work.ts'
import { PayloadTooLargeError } from '../../runtime/errors.ts'
import { expandCidr } from './cidr/expand.ts'
import type { IpResult } from '../../runtime/ip/ip-types.ts'
import { parseCidr } from '../../runtime/ip/parse-cidr.ts'
import { summarize } from './cidr/summarize.ts'
import { presentPage, presentSummary } from './present-cidr.ts'

// The network endpoints that can take tens of milliseconds of CPU per request
// (bench/RESULTS.md, "CPU pool"): a 100k-entry summarize (~30-75 ms plus decoding
// and rendering its ~1.5 MB answer), a 4096-address IPv6 expand page (~4-7 ms).
// Their descriptors say `offload`; the CPU pool's workers load this module.

/** DESIGN.md "Bounds": cidr/summarize takes up to 100,000 entries. */
export const SUMMARIZE_MAX_ENTRIES = 100_000

/** Input already passed the descriptor's schema, which ran this same parser: a failure here is a bug. */
function must<T>(result: IpResult<T>): T {
  if (!result.ok) throw new Error(`validated input failed to parse again: ${result.error.reason}`)
  return result.value
}

export default defineWork({
  resolvers: [
    workResolver(cidrExpand, ({ cidr, limit, offset }) => presentPage(must(expandCidr(must(parseCidr(cidr)), offset, limit)))),
    workResolver(cidrSummarize, ({ body }) => {
      if (body.length > SUMMARIZE_MAX_ENTRIES) {
        throw new PayloadTooLargeError(
          `The list has ${body.length} entries; cidr/summarize takes at most ${SUMMARIZE_MAX_ENTRIES.toLocaleString('en-US')} per request. Split it and summarize the results again.`,
          { max_entries: SUMMARIZE_MAX_ENTRIES, entries: body.length },
        )
      }
      return presentSummary(summarize(body))
    }),
  ],
})
