import { basename, dirname, relative } from 'node:path'
import type { Plugin } from './define-plugin.ts'
import { importDefault, listModules } from './discover.ts'

export class PluginError extends Error {
  override name = 'PluginError'
}

function isPlugin(value: unknown): value is Plugin {
  return typeof value === 'object' && value !== null && 'name' in value && typeof (value as Plugin).setup === 'function'
}

/** Imports `<dir>/<name>/plugin.ts` for every plugin folder. */
export async function discoverPlugins(dirs: readonly string[]): Promise<Plugin[]> {
  const plugins: Plugin[] = []
  for (const dir of dirs) {
    const files = await listModules(dir, (f) => /^plugin\.(ts|js|mjs)$/.test(basename(f)) && dirname(dirname(f)) === dir)
    for (const file of files) {
      const plugin = await importDefault(file)
      if (!isPlugin(plugin)) throw new PluginError(`${relative(process.cwd(), file)}: default export is not a plugin (use definePlugin)`)
      plugins.push(plugin)
    }
  }
  return plugins
}

/** Orders plugins so each runs after its dependencies; fails on unknown names and cycles. */
export function orderPlugins(plugins: readonly Plugin[]): Plugin[] {
  const byName = new Map<string, Plugin>()
  for (const plugin of plugins) {
    if (byName.has(plugin.name)) throw new PluginError(`Two plugins are named "${plugin.name}"`)
    byName.set(plugin.name, plugin)
  }
  const ordered: Plugin[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (plugin: Plugin, chain: string[]): void => {
    const s = state.get(plugin.name)
    if (s === 'done') return
    if (s === 'visiting') throw new PluginError(`Plugin dependency cycle: ${[...chain, plugin.name].join(' -> ')}`)
    state.set(plugin.name, 'visiting')
    for (const dep of plugin.dependencies ?? []) {
      const target = byName.get(dep)
      if (!target) throw new PluginError(`Plugin "${plugin.name}" depends on "${dep}", which is not installed`)
      visit(target, [...chain, plugin.name])
    }
    state.set(plugin.name, 'done')
    ordered.push(plugin)
  }
  for (const plugin of [...plugins].sort((a, b) => a.name.localeCompare(b.name))) visit(plugin, [])
  return ordered
}
