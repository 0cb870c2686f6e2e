import cluster from 'node:cluster'
import type { Config } from './config.ts'
import { ConfigError, loadConfig } from './config.ts'

// npm start: the whole service on the embedded defaults (PORT 3000). With
// INFRALENS_WORKERS above 1 (the default: one per core) this process becomes the
// cluster's primary and forks that many workers, which run this same file
// (runtime/cluster/primary.ts); with 1 it serves HTTP itself, as one process.
// Each role imports only what it runs: the primary serves no HTTP, and without the
// app's modules it holds ~50 MiB less (bench/cluster-memory.ts).

if (cluster.isWorker) {
  const [{ serveProcess }, { connectWorker }] = await Promise.all([import('./serve.ts'), import('./cluster/worker-link.ts')])
  await serveProcess({ cluster: await connectWorker() })
} else {
  let config: Config
  try {
    config = loadConfig(process.env)
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error)
    process.exit(1)
  }
  if (config.workers > 1) await (await import('./cluster/primary.ts')).runPrimary({ config })
  else await (await import('./serve.ts')).serveProcess()
}
