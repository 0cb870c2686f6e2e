import { parseArgs } from 'node:util'
import { KeysFileError, appendKey, generateKey, hashKey } from '../plugins/auth/api-keys.ts'
import { loadConfig } from '../runtime/config.ts'

// npm run key:create -- --tier pro --label ci [--file keys.json]
// Prints the key once; only its hash is written.

const { values } = parseArgs({
  options: {
    tier: { type: 'string', default: 'free' },
    label: { type: 'string', default: '' },
    file: { type: 'string' },
  },
})

const config = loadConfig(process.env)
const file = values.file ?? config.keysFile ?? 'keys.json'
const tier = values.tier!
if (!(tier in config.rateLimits)) {
  console.error(`Unknown tier "${tier}"; configured tiers: ${Object.keys(config.rateLimits).join(', ')}`)
  process.exit(2)
}
const key = generateKey()
try {
  await appendKey(file, { hash: hashKey(key), tier, label: values.label!, created: new Date().toISOString() })
} catch (error) {
  // An existing file that is not a keys file is left alone: say why, nothing printed on stdout.
  console.error(error instanceof KeysFileError ? error.message : error)
  process.exit(1)
}
console.log(key)
console.error(`Key for tier "${tier}" (label "${values.label}") added to ${file}. It is shown only now; store it safely.`)
if (!config.keysFile) console.error(`Start the service with INFRALENS_KEYS_FILE=${file} to accept it.`)
