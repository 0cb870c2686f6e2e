import { createHash, randomInt } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile, writeFile, rename } from 'node:fs/promises'
import { z } from 'zod'
import { ConfigError } from '../../runtime/config.ts'

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

/**
 * The keys file cannot be used; the message says what is wrong and how to fix it.
 * A ConfigError: start-up stops with the message alone, like any bad setting.
 */
export class KeysFileError extends ConfigError {
  override name = 'KeysFileError'
}

/** Reads and validates a keys file; a missing or malformed file is a KeysFileError. */
export async function readKeysFile(path: string): Promise<KeyRecord[]> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') {
      throw new KeysFileError(
        `INFRALENS_KEYS_FILE=${path}: the file does not exist. Create it with \`npm run key:create -- --tier free --label me\` (it writes that file), or unset INFRALENS_KEYS_FILE to run with anonymous access only.`,
      )
    }
    throw new KeysFileError(`INFRALENS_KEYS_FILE=${path}: cannot read the file (${code ?? (error as Error).message}).`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new KeysFileError(`INFRALENS_KEYS_FILE=${path} is not valid JSON (${(error as Error).message}); expected {"keys":[{"hash","tier","label","created"}]}.`)
  }
  const parsed = KeysFileSchema.safeParse(json)
  if (!parsed.success) {
    throw new KeysFileError(`Keys file ${path} is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`)
  }
  return parsed.data.keys
}

/** Adds a record, writing a temp file and renaming so a reader never sees half a file. */
export async function appendKey(path: string, record: KeyRecord): Promise<void> {
  // The first key creates the file; any other problem with it stops here.
  const keys = existsSync(path) ? await readKeysFile(path) : []
  keys.push(record)
  const tmp = `${path}.${process.pid}.tmp`
  await writeFile(tmp, JSON.stringify({ keys }, null, 2) + '\n', { mode: 0o600 })
  await rename(tmp, path)
}
