import { definePlugin } from '../../runtime/define-plugin.ts'
import { PayloadTooLargeError, UnavailableError } from '../../runtime/errors.ts'
import cidrAnalyze from '../../registry/network/cidr-analyze.ts'
import cidrExpand from '../../registry/network/cidr-expand.ts'
import cidrSummarize from '../../registry/network/cidr-summarize.ts'
import ipEndpoint from '../../registry/network/ip.ts'
import { expandCidr } from './ip/expand.ts'
import type { Cidr, IpAddress, IpResult } from './ip/ip-types.ts'
import { parseCidr } from './ip/parse-cidr.ts'
import { parseIp } from './ip/parse.ts'
import { summarize } from './ip/summarize.ts'
import type { IpDataSets } from './ip-data.ts'
import { IpDataLoader } from './ip-data.ts'
import { ipDataFiles } from './ip-data-files.ts'
import { presentAnalysis, presentPage, presentSummary } from './present-cidr.ts'
import { presentIp } from './present-ip.ts'

declare module '../../runtime/define-plugin.ts' {
  interface UpstreamRegistry {
    /** The offline ASN/country data, loaded once and shared (plugins/routing's intelligence reads it too). */
    ipData: IpDataLoader
  }
}

/** DESIGN.md "Bounds": cidr/summarize takes up to 100,000 entries. */
export const SUMMARIZE_MAX_ENTRIES = 100_000

/** Input already passed the descriptor's schema, which ran this same parser: a failure here is a bug. */
function must<T>(result: IpResult<T>): T {
  if (!result.ok) throw new Error(`validated input failed to parse again: ${result.error.reason}`)
  return result.value
}

export default definePlugin({
  name: 'network',
  setup(api) {
    const ipData = new IpDataLoader(ipDataFiles(api.config), api.log)
    api.readiness('ip-data', () => ipData.check())
    api.upstream('ipData', ipData)

    const loaded = async (): Promise<IpDataSets> => {
      try {
        return await ipData.get()
      } catch (error) {
        throw new UnavailableError(`The offline ASN and country data is not available: ${(error as Error).message}`, { data: 'ip-data' })
      }
    }

    api.resolve(ipEndpoint, async ({ ip }) => {
      const address: IpAddress = must(parseIp(ip))
      return presentIp(address, await loaded())
    })

    api.resolve(cidrAnalyze, ({ cidr }) => presentAnalysis(must<Cidr>(parseCidr(cidr))))

    api.resolve(cidrExpand, ({ cidr, limit, offset }) => presentPage(must(expandCidr(must(parseCidr(cidr)), offset, limit))))

    api.resolve(cidrSummarize, ({ body }) => {
      if (body.length > SUMMARIZE_MAX_ENTRIES) {
        throw new PayloadTooLargeError(
          `The list has ${body.length} entries; cidr/summarize takes at most ${SUMMARIZE_MAX_ENTRIES.toLocaleString('en-US')} per request. Split it and summarize the results again.`,
          { max_entries: SUMMARIZE_MAX_ENTRIES, entries: body.length },
        )
      }
      return presentSummary(summarize(body))
    })
  },
})
