import { parseArgs } from 'node:util'
import { appendKey, generateKey, hashKey } from '../plugins/auth/api-keys.ts'
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
await appendKey(file, { hash: hashKey(key), tier, label: values.label!, created: new Date().toISOString() })
console.log(key)
console.error(`Key for tier "${tier}" (label "${values.label}") added to ${file}. It is shown only now; store it safely.`)
if (!config.keysFile) console.error(`Start the service with INFRALENS_KEYS_FILE=${file} to accept it.`)
