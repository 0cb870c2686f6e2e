import { definePlugin } from '../../runtime/define-plugin.ts'
import transparency from '../../registry/tls/certificate-transparency.ts'
import type { CrtshClient } from './crtsh-client.ts'
import { createCrtshClient } from './crtsh-client.ts'
import { certificateTransparency } from './transparency.ts'

declare module '../../runtime/define-plugin.ts' {
  interface UpstreamRegistry {
    crtsh: CrtshClient
  }
}

export default definePlugin({
  name: 'ct',
  setup(api) {
    // crt.sh often takes seconds: give it most of the request deadline (at most 20 s),
    // so a slow answer is a 502 naming crt.sh rather than a bare 504.
    const timeoutMs = Math.max(200, Math.min(20_000, api.config.requestTimeoutMs - 1_000))
    const crtsh = createCrtshClient({ network: api.network, baseUrl: api.config.crtshUrl, timeoutMs })
    api.upstream('crtsh', crtsh)
    api.resolve(transparency, (input, ctx) => certificateTransparency(crtsh, input, ctx.signal, new Date(ctx.clock.now())))
  },
})
