import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import type { Plugin } from '../../runtime/define-plugin.ts'
import { importDefault } from '../../runtime/discover.ts'
import { orderPlugins } from '../../runtime/plugins.ts'
import type { ImportEdge } from './import-graph.ts'
import { findCycles, readImportGraph } from './import-graph.ts'

// Dependencies run one way (DESIGN.md §1, README "Architecture"):
//
//   runtime  <-  registry  <-  plugins
//
// runtime/ imports neither registry/ nor plugins/; a descriptor (and what it
// shares in registry/<tag>/schemas/) imports only runtime/, registry/ and zod; a
// plugin imports runtime/, registry/, its own files, and of another plugin only
// that plugin's surface file (plugins/<name>/surface.ts), and only when it
// declares that plugin in `dependencies`. No two files import each other, however
// indirectly. Every import counts: static and type-only, re-exports, dynamic
// import() with a literal, module augmentations.

/** The one file of a plugin other plugins may import (see README, "Plugin surfaces"). */
const SURFACE = 'surface.ts'
/** The packages a descriptor may use besides runtime/ and registry/. */
const REGISTRY_PACKAGES = new Set(['zod'])

const graph = readImportGraph(ROOT, ['runtime', 'registry', 'plugins'])
const files = graph.files
// A file that imports one module twice (a type and a value) breaks a rule once.
const edges = [...new Map(graph.edges.map((e) => [`${e.from} ${e.to ?? e.specifier}`, e])).values()]

const layerOf = (path: string): string => path.split('/')[0]!
const pluginOf = (path: string): string => path.split('/')[1]!
const show = (edge: ImportEdge): string => `${edge.from} -> ${edge.to ?? edge.specifier}`

const pluginDirs = readdirSync(join(ROOT, 'plugins'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort()
const plugins = new Map<string, Plugin>()
for (const dir of pluginDirs) plugins.set(dir, (await importDefault(join(ROOT, 'plugins', dir, 'plugin.ts'))) as Plugin)

describe('layers: runtime <- registry <- plugins', () => {
  it('reads the imports of the whole service', () => {
    expect(files.length).toBeGreaterThan(400)
    expect(edges.length).toBeGreaterThan(1000)
  })

  it('runtime/ imports neither registry/ nor plugins/', () => {
    const wrong = edges.filter((e) => layerOf(e.from) === 'runtime' && e.to !== undefined && ['registry', 'plugins'].includes(layerOf(e.to)))
    expect(wrong.map(show)).toEqual([])
  })

  it('registry/ imports only runtime/, registry/ and zod', () => {
    const wrong = edges.filter(
      (e) => layerOf(e.from) === 'registry' && (e.to === undefined ? !REGISTRY_PACKAGES.has(e.specifier) : !['runtime', 'registry'].includes(layerOf(e.to))),
    )
    expect(wrong.map(show)).toEqual([])
  })

  it('each plugin folder holds the plugin of its name', () => {
    expect([...plugins].filter(([dir, plugin]) => plugin.name !== dir).map(([dir, plugin]) => `plugins/${dir}/plugin.ts is named "${plugin.name}"`)).toEqual([])
  })

  it('a plugin imports another plugin only through its surface file, and only as a declared dependency', () => {
    const wrong: string[] = []
    for (const edge of edges) {
      if (layerOf(edge.from) !== 'plugins' || edge.to === undefined || layerOf(edge.to) !== 'plugins') continue
      const [user, used] = [pluginOf(edge.from), pluginOf(edge.to)]
      if (user === used) continue
      const declared = plugins.get(user)?.dependencies?.includes(used) ?? false
      const surface = edge.to === `plugins/${used}/${SURFACE}`
      const reasons = [
        ...(declared ? [] : [`"${user}" does not declare "${used}" in its dependencies`]),
        ...(surface ? [] : [`not "${used}"'s surface (plugins/${used}/${SURFACE})`]),
      ]
      if (reasons.length) wrong.push(`${show(edge)}: ${reasons.join('; ')}`)
    }
    expect(wrong).toEqual([])
  })

  it("a plugin's surface offers only that plugin's own code", () => {
    const wrong = edges.filter(
      (e) => e.from.startsWith('plugins/') && e.from === `plugins/${pluginOf(e.from)}/${SURFACE}` && e.to !== undefined && !e.to.startsWith(`plugins/${pluginOf(e.from)}/`),
    )
    expect(wrong.map(show)).toEqual([])
  })

  it('declared dependencies name installed plugins and order start-up without a cycle', () => {
    const all = [...plugins.values()]
    expect(() => orderPlugins(all)).not.toThrow()
    const order = orderPlugins(all).map((p) => p.name)
    for (const plugin of all) for (const dependency of plugin.dependencies ?? []) expect(order.indexOf(dependency)).toBeLessThan(order.indexOf(plugin.name))
  })

  it('no import cycle between files', () => {
    expect(findCycles(files, edges).map((cycle) => cycle.join(' -> '))).toEqual([])
  })
})
