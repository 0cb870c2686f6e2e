import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

// The import graph of the service's own code, as text: every file under the
// given folders and what it imports. TypeScript's own pre-processor reads the
// imports (static `import` and `import type`, `export ... from`, `import()` with
// a literal, `declare module` augmentations), so comments and strings that merely
// look like imports are not counted, and nothing is executed.

/** One import: the file that has it, and what it names. */
export interface ImportEdge {
  /** Repository-relative path with forward slashes, e.g. plugins/dns/plugin.ts. */
  from: string
  /** The specifier as written ('zod', '../../runtime/errors.ts'). */
  specifier: string
  /** Repository-relative path of a relative specifier; undefined for a package. */
  to: string | undefined
}

const SOURCE = /\.(?:ts|mts|mjs)$/

const posix = (path: string): string => path.split(sep).join('/')

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
}

/** Every import of every source file under `root`/`folders`. */
export function readImportGraph(root: string, folders: readonly string[]): { files: string[]; edges: ImportEdge[] } {
  const files = folders.flatMap((folder) => sourcesUnder(join(root, folder)))
  const edges: ImportEdge[] = []
  for (const file of files) {
    const from = posix(relative(root, file))
    for (const { fileName: specifier } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const to = specifier.startsWith('.') ? posix(relative(root, resolve(dirname(file), specifier))) : undefined
      edges.push({ from, specifier, to })
    }
  }
  return { files: files.map((file) => posix(relative(root, file))), edges }
}

/**
 * The import cycles among `files`: one per strongly connected component (Tarjan),
 * each given as a path that starts and ends at the same file.
 */
export function findCycles(files: readonly string[], edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>(files.map((file) => [file, []]))
  for (const { from, to } of edges) if (to !== undefined && next.has(to)) next.get(from)!.push(to)

  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  let counter = 0
  // Iterative, so a long chain of imports cannot overflow the call stack.
  for (const start of files) {
    if (index.has(start)) continue
    const work: Array<{ file: string; at: number }> = [{ file: start, at: 0 }]
    index.set(start, counter)
    low.set(start, counter++)
    stack.push(start)
    onStack.add(start)
    while (work.length) {
      const top = work[work.length - 1]!
      const targets = next.get(top.file)!
      if (top.at < targets.length) {
        const target = targets[top.at++]!
        if (!index.has(target)) {
          index.set(target, counter)
          low.set(target, counter++)
          stack.push(target)
          onStack.add(target)
          work.push({ file: target, at: 0 })
        } else if (onStack.has(target)) low.set(top.file, Math.min(low.get(top.file)!, index.get(target)!))
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(top.file)!))
      if (low.get(top.file) === index.get(top.file)) {
        const component: string[] = []
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          component.push(member)
        } while (member !== top.file)
        const selfImport = component.length === 1 && next.get(top.file)!.includes(top.file)
        if (component.length > 1 || selfImport) components.push(component)
      }
    }
  }
  return components.map((component) => shortestCycle(component.sort()[0]!, new Set(component), next))
}

/** The shortest way from `start` back to itself inside one component (breadth first). */
function shortestCycle(start: string, inside: ReadonlySet<string>, next: ReadonlyMap<string, readonly string[]>): string[] {
  const cameFrom = new Map<string, string>()
  const queue = [start]
  while (queue.length) {
    const file = queue.shift()!
    for (const target of next.get(file)!) {
      if (!inside.has(target)) continue
      if (target === start) {
        const path = [start]
        for (let at = file; at !== start; at = cameFrom.get(at)!) path.unshift(at)
        return [start, ...path]
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file)
        queue.push(target)
      }
    }
  }
  return [start, start]
}
