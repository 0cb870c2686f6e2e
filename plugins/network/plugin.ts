import { definePlugin } from '../../runtime/define-plugin.ts'
import { UnavailableError } from '../../runtime/errors.ts'
import cidrAnalyze from '../../registry/network/cidr-analyze.ts'
import ipEndpoint from '../../registry/network/ip.ts'
import type { Cidr, IpAddress, IpResult } from '../../runtime/ip/ip-types.ts'
import { parseCidr } from '../../runtime/ip/parse-cidr.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import type { IpDataSets } from './ip-data.ts'
import { IpDataLoader } from './ip-data.ts'
import { ipDataFiles } from './ip-data-files.ts'
import { presentAnalysis } from './present-cidr.ts'
import { presentIp } from './present-ip.ts'

declare module '../../runtime/define-plugin.ts' {
  interface UpstreamRegistry {
    /** The offline ASN/country data, loaded once and shared (plugins/routing's intelligence reads it too). */
    ipData: IpDataLoader
  }
}

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

    api.resolve(ipEndpoint, async ({ ip }, ctx) => {
      const address: IpAddress = must(parseIp(ip))
      return presentIp(address, await loaded(), ctx.clock.now())
    })

    api.resolve(cidrAnalyze, ({ cidr }) => presentAnalysis(must<Cidr>(parseCidr(cidr))))

    // cidr/expand and cidr/summarize: pure and CPU-heavy at their bounds, they run
    // in the CPU pool (their descriptors say offload); the workers load work.ts.
    api.work(new URL('./work.ts', import.meta.url))
  },
})
