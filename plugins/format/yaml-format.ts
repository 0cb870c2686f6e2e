import { defineFormat } from '../../runtime/define-format.ts'
import { toYaml } from './yaml-emit.ts'

export const yamlFormat = defineFormat({
  name: 'yaml',
  contentType: 'application/yaml; charset=utf-8',
  success: (envelope) => toYaml(envelope),
  error: (envelope) => toYaml(envelope),
  raw: (data) => toYaml(data),
})
