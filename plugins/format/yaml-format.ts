import { dump } from 'js-yaml'
import { defineFormat } from '../../runtime/define-format.ts'

// noRefs: shared sub-objects are written out, never as YAML anchors a consumer must resolve.
// lineWidth -1: long strings (TXT records, keys) stay on one line.
const toYaml = (value: unknown): string => dump(value, { noRefs: true, lineWidth: -1, skipInvalid: true })

export const yamlFormat = defineFormat({
  name: 'yaml',
  contentType: 'application/yaml; charset=utf-8',
  success: (envelope) => toYaml(envelope),
  error: (envelope) => toYaml(envelope),
  raw: (data) => toYaml(data),
})
