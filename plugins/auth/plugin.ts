import { defineLayer } from '../../runtime/call.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { InvalidApiKeyError } from '../../runtime/errors.ts'
import { KEY_PATTERN } from './api-keys.ts'
import { KeyStore } from './key-store.ts'

export default definePlugin({
  name: 'auth',
  async setup(api) {
    const store = new KeyStore(api.config.keysFile, new Set(Object.keys(api.config.rateLimits)), api.log)
    await store.load()
    store.watch()
    api.onClose(() => store.stop())
    api.log.debug({ keys: store.size }, 'api keys loaded')

    api.layer(
      defineLayer({
        name: 'auth',
        stage: 'auth',
        // Not async (no await here): one promise less per request; a throw still
        // reaches the pipeline's error handling, which awaits the whole chain.
        forEndpoint: () => (call, next) => {
          const key = call.header('x-api-key')
          if (key !== null) {
            if (!KEY_PATTERN.test(key)) {
              throw new InvalidApiKeyError('The x-api-key header is malformed: keys look like il_ followed by 32 or more letters and digits.')
            }
            const stored = store.find(key)
            if (!stored) throw new InvalidApiKeyError('The API key in x-api-key is not known; check it, or call without the header for anonymous access.')
            call.caller = { ...call.caller, tier: stored.tier, keyLabel: stored.label, principal: `key:${stored.id}` }
          }
          return next()
        },
      }),
    )
  },
})
