import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { definePlugin } from '../../runtime/define-plugin.ts'
import docs from '../../registry/meta/docs.ts'
import docsScript from '../../registry/meta/docs-script.ts'
import endpointList from '../../registry/meta/endpoints.ts'
import openapi from '../../registry/meta/openapi.ts'
import { docsPage } from './page.ts'

const require = createRequire(import.meta.url)

/** The browser bundle of the installed @scalar/api-reference, and its version. Throws (start-up fails) when the package is missing. */
export function scalarBundle(): { file: string; version: string } {
  const file = require.resolve('@scalar/api-reference/browser/standalone.js')
  const manifest = join(dirname(file), '..', '..', 'package.json')
  return { file, version: (require(manifest) as { version: string }).version }
}

export default definePlugin({
  name: 'docs',
  setup(api) {
    const bundle = scalarBundle()
    const page = docsPage(bundle.version, { script: docsScript.path, document: openapi.path, endpoints: endpointList.path })
    // 3.5 MB, read on first use: most processes never serve it.
    let script: Promise<string> | undefined
    api.resolve(docs, () => page)
    api.resolve(docsScript, () => {
      script ??= readFile(bundle.file, 'utf8').catch((error: unknown) => {
        script = undefined
        throw error
      })
      return script
    })
  },
})
