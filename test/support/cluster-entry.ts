import cluster from 'node:cluster'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { ROOT } from '../../runtime/app.ts'
import { runPrimary } from '../../runtime/cluster/primary.ts'
import { connectWorker } from '../../runtime/cluster/worker-link.ts'
import { loadConfig } from '../../runtime/config.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { serveProcess } from '../../runtime/serve.ts'
import { FIXTURE_REGISTRY } from './app.ts'
import { createFixturePlugin } from './fixture-plugin.ts'

// The clustered service as runtime/main.ts runs it, plus what the cluster tests
// need (test/scale/cluster.test.ts): the fixture endpoints, and
// - TEST_LAG_MS / TEST_LAG_EVERY_MS: every process (primary and workers) holds its
//   event loop for TEST_LAG_MS every TEST_LAG_EVERY_MS (see lag() below);
// - GET /__test/served: how many requests each worker answered (a gather);
// - GET /__test/crash: the worker answering it dies of an uncaught exception.

// Holding the loop while a worker loads its data would only make start-up 7x
// slower: the counters' order does not depend on it (a worker defines them before
// it listens, over the same IPC channel). So the primary lags from its first
// moment, a worker from the moment it listens: its first requests are lagged.
const lagMs = Number(process.env.TEST_LAG_MS ?? 0)
const lag = () => {
  if (lagMs <= 0) return
  setInterval(() => {
    const end = performance.now() + lagMs
    while (performance.now() < end);
  }, Number(process.env.TEST_LAG_EVERY_MS ?? 50)).unref()
}

if (cluster.isPrimary) {
  lag()
  await runPrimary({ config: loadConfig(process.env), exec: fileURLToPath(import.meta.url) })
} else {
  const link = await connectWorker()
  let served = 0
  const probes = definePlugin({
    name: 'test-cluster-probes',
    setup(api) {
      api.observe(() => void served++)
      link.answer('served', () => served)
      api.rawRoute('/__test/served', async () => ({ contentType: 'application/json', body: JSON.stringify(await link.gather('served')) }))
      api.rawRoute('/__test/crash', () => {
        setImmediate(() => {
          throw new Error('test crash: a bug that escaped every handler')
        })
        return { contentType: 'text/plain', body: 'crashing' }
      })
    },
  })
  await serveProcess({
    cluster: link,
    app: { registryDirs: [join(ROOT, 'registry'), FIXTURE_REGISTRY], plugins: [createFixturePlugin().plugin, probes] },
  })
  lag()
}
