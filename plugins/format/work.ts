import { defineWork } from '../../runtime/cpu/define-work.ts'
import { csvFormat } from './csv-format.ts'
import { jsonFormat } from './json-format.ts'
import { xmlFormat } from './xml-format.ts'
import { yamlFormat } from './yaml-format.ts'

// The formats, also for the CPU pool's workers: an offloaded answer is rendered
// where it was computed (a 100k-entry summary is ~20-50 ms of YAML or XML).
export default defineWork({ formats: [jsonFormat, yamlFormat, xmlFormat, csvFormat] })
