import { createHash, randomInt } from 'node:crypto'
import { readFile, writeFile, rename } from 'node:fs/promises'
import { z } from 'zod'

// Keys are `il_` + 32 or more base62 characters. Only their SHA-256 is stored: a
// leaked keys file does not leak keys.

export const KEY_PREFIX = 'il_'
export const KEY_PATTERN = /^il_[A-Za-z0-9]{32,128}$/
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const KEY_BODY_LENGTH = 40

export interface KeyRecord {
  hash: string
  tier: string
  label: string
  created: string
}

const KeysFileSchema = z.object({
  keys: z.array(
    z.object({
      hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a lowercase hex SHA-256'),
      tier: z.string().min(1),
      label: z.string().default(''),
      created: z.string().default(''),
    }),
  ),
})

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

/** A new key with ~238 bits of entropy (randomInt draws without modulo bias). */
export function generateKey(): string {
  let body = ''
  for (let i = 0; i < KEY_BODY_LENGTH; i++) body += BASE62[randomInt(BASE62.length)]
  return KEY_PREFIX + body
}

export async function readKeysFile(path: string): Promise<KeyRecord[]> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  const parsed = KeysFileSchema.safeParse(JSON.parse(text))
  if (!parsed.success) {
    throw new Error(`Keys file ${path} is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
  }
  return parsed.data.keys
}

/** Adds a record, writing a temp file and renaming so a reader never sees half a file. */
export async function appendKey(path: string, record: KeyRecord): Promise<void> {
  const keys = await readKeysFile(path)
  keys.push(record)
  const tmp = `${path}.${process.pid}.tmp`
  await writeFile(tmp, JSON.stringify({ keys }, null, 2) + '\n', { mode: 0o600 })
  await rename(tmp, path)
}
