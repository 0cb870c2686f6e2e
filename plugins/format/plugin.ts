import { definePlugin } from '../../runtime/define-plugin.ts'
import { csvFormat } from './csv-format.ts'
import { jsonFormat } from './json-format.ts'
import { xmlFormat } from './xml-format.ts'
import { yamlFormat } from './yaml-format.ts'

export default definePlugin({
  name: 'format',
  setup(api) {
    for (const format of [jsonFormat, yamlFormat, xmlFormat, csvFormat]) api.format(format)
  },
})
