import report from '../../registry/flagship/report.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { domainReport } from './report.ts'

// The flagship: one call, every area of a domain (plugins/report/report.ts).

export default definePlugin({
  name: 'report',
  setup(api) {
    api.resolve(report, ({ domain, port }, ctx) => domainReport(domain, port, ctx))
  },
})
