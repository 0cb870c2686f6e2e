import { definePlugin } from '../../runtime/define-plugin.ts'
import work from './work.ts'

export default definePlugin({
  name: 'format',
  setup(api) {
    for (const format of work.formats ?? []) api.format(format)
    api.work(new URL('./work.ts', import.meta.url))
  },
})
