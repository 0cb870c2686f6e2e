import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** Every .ts/.js module under dir (recursively), in a stable order. Tests and .d.ts are skipped. */
export async function listModules(dir: string, match: (file: string) => boolean = () => true): Promise<string[]> {
  let entries
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return entries
    .filter((e) => e.isFile() && /\.(ts|js|mjs)$/.test(e.name) && !/\.(d|test)\.ts$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .filter(match)
    .sort()
}

export async function importDefault(file: string): Promise<unknown> {
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown }
  return mod.default
}
