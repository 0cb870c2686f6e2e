import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { findCycles, readImportGraph } from './import-graph.ts'

// The reader behind test/architecture/layers.test.ts, on a tree small enough to
// know every import of: a layers test that read nothing would pass on anything.

let dir: string
let at: string
beforeAll(async () => {
  await mkdir(join(ROOT, 'test', '.tmp'), { recursive: true })
  dir = await mkdtemp(join(ROOT, 'test', '.tmp', 'imports-'))
  at = relative(ROOT, dir)
  await mkdir(join(dir, 'src'))
  const files: Record<string, string> = {
    'src/a.ts': "import type { B } from './b.ts'\nexport { c } from './c.ts'\nexport type A = B\n",
    'src/b.ts': [
      "import 'zod'",
      "const d = await import('./d.ts')",
      "// import './commented.ts'",
      "const text = \"import './quoted.ts'\"",
      'export type B = typeof d | typeof text',
      '',
    ].join('\n'),
    'src/c.ts': "export * from './a.ts'\nexport const c = 1\n",
    'src/d.ts': "declare module './b.ts' { interface Extra { x: 1 } }\nexport {}\n",
    'src/e.d.ts': "import './a.ts'\n",
  }
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text)
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('the import reader of the layers test', () => {
  it('reads type imports, re-exports, literal dynamic imports, packages and augmentations; not comments, strings or .d.ts files', () => {
    const { files, edges } = readImportGraph(ROOT, [join(at, 'src')])
    expect(files).toEqual(['a', 'b', 'c', 'd'].map((f) => `${at}/src/${f}.ts`))
    const seen = edges.map((e) => `${e.from.slice(at.length + 5)} -> ${e.to === undefined ? e.specifier : e.to.slice(at.length + 5)}`)
    expect(seen.sort()).toEqual(['a.ts -> b.ts', 'a.ts -> c.ts', 'b.ts -> d.ts', 'b.ts -> zod', 'c.ts -> a.ts', 'd.ts -> b.ts'])
  })

  it('finds each cycle and gives its path', () => {
    const { files, edges } = readImportGraph(ROOT, [join(at, 'src')])
    const short = (path: string) => path.slice(at.length + 5)
    // a <-> c and b <-> d (the augmentation counts); a -> b joins neither.
    const cycles = findCycles(files, edges).map((cycle) => cycle.map(short).join(' -> '))
    expect(cycles.sort()).toEqual(['a.ts -> c.ts -> a.ts', 'b.ts -> d.ts -> b.ts'])
  })
})
