import type { Config } from '../config.ts'
import type { AnyEndpoint } from '../define-endpoint.ts'
import type { Format } from '../define-format.ts'
import type { Resolver } from '../define-plugin.ts'
import { PluginError } from '../plugins.ts'
import type { CpuPool } from './cpu-pool.ts'
import { defineCpuPool } from './cpu-pool.ts'
import { isWorkModule } from './define-work.ts'

export interface WireCpuOptions {
  /** The work modules plugins named with api.work, in order. */
  modules: readonly URL[]
  endpoints: readonly AnyEndpoint[]
  /** The app's resolvers so far; the work modules' are added. */
  resolvers: Map<string, Resolver>
  /** Every format plugins registered with api.format. */
  formats: readonly Format[]
  config: Config
  env: Readonly<Record<string, string | undefined>>
  registryDirs: readonly string[]
}

/**
 * Imports the work modules on the main thread (their resolvers serve ctx.invoke and
 * INFRALENS_CPU_WORKERS=0), checks that the workers will be able to answer every
 * offloaded endpoint in every format, and builds the pool. Undefined when nothing
 * is offloaded or the pool is switched off.
 */
export async function wireCpu(options: WireCpuOptions): Promise<CpuPool | undefined> {
  const known = new Set(options.endpoints.map((e) => e.name))
  const fromWork = new Set<string>()
  const workFormats = new Set<string>()
  for (const url of options.modules) {
    const module = ((await import(url.href)) as { default?: unknown }).default
    if (!isWorkModule(module)) throw new PluginError(`${url.href}: default export is not a work module (defineWork)`)
    for (const { endpoint, resolve } of module.resolvers ?? []) {
      if (!known.has(endpoint.name)) throw new PluginError(`Work module ${url.href} has a resolver for "${endpoint.name}", which has no descriptor under registry/`)
      if (options.resolvers.has(endpoint.name)) throw new PluginError(`Two resolvers for "${endpoint.name}" (second from work module ${url.href})`)
      options.resolvers.set(endpoint.name, resolve)
      fromWork.add(endpoint.name)
    }
    for (const format of module.formats ?? []) workFormats.add(format.name)
  }
  const offloaded = options.endpoints.filter((e) => e.offload)
  for (const e of offloaded) {
    if (!fromWork.has(e.name)) throw new PluginError(`${e.name} is marked offload, so its resolver must come from a work module (api.work), which the CPU pool's workers load`)
  }
  if (offloaded.length === 0 || options.config.cpuWorkers === 0) return undefined
  const unrendered = options.formats.map((f) => f.name).filter((name) => !workFormats.has(name))
  if (unrendered.length) throw new PluginError(`Format(s) ${unrendered.join(', ')} are in no work module (api.work): offloaded endpoints could not answer in them`)
  return defineCpuPool({
    threads: options.config.cpuWorkers,
    maxQueue: options.config.cpuQueue,
    data: {
      // A plain copy: process.env is not an object a worker can be sent.
      env: { ...options.env },
      registryDirs: [...options.registryDirs],
      workModules: options.modules.map((u) => u.href),
    },
  })
}
