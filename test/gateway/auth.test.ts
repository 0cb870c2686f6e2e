import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateKey, hashKey, KEY_PATTERN } from '../../plugins/auth/api-keys.ts'
import { ROOT } from '../../runtime/app.ts'
import { ConfigError } from '../../runtime/config.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

const run = promisify(execFile)

let dir: string
let keysFile: string
let t: TestApp
const proKey = generateKey()
const freeKey = generateKey()

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'infralens-keys-'))
  keysFile = join(dir, 'keys.json')
  await writeFile(
    keysFile,
    JSON.stringify({
      keys: [
        { hash: hashKey(proKey), tier: 'pro', label: 'ci', created: '2026-01-01T00:00:00Z' },
        { hash: hashKey(freeKey), tier: 'free', label: 'hobby', created: '2026-01-01T00:00:00Z' },
      ],
    }),
  )
  t = await startTestApp({ INFRALENS_KEYS_FILE: keysFile })
})
afterAll(async () => {
  await t.close()
  await rm(dir, { recursive: true, force: true })
})

describe('api keys', () => {
  it('generated keys have the il_ format and differ', () => {
    expect(proKey).toMatch(KEY_PATTERN)
    expect(proKey).toMatch(/^il_[A-Za-z0-9]{40}$/)
    expect(new Set(Array.from({ length: 100 }, generateKey)).size).toBe(100)
  })

  it('no key: anonymous tier and anonymous limits', async () => {
    const res = await t.json('/api/uuid')
    expect(res.body.meta.tier).toBe('anonymous')
    expect(res.headers.get('ratelimit-limit')).toBe('60')
  })

  it('a pro key: meta.tier pro and the pro limit', async () => {
    const res = await t.json('/api/uuid', { headers: { 'x-api-key': proKey } })
    expect(res.status).toBe(200)
    expect(res.body.meta.tier).toBe('pro')
    expect(res.headers.get('ratelimit-limit')).toBe('6000')
    expect(res.headers.get('ratelimit-policy')).toBe('6000;w=60')
  })

  it('a free key: meta.tier free; usage names the key label', async () => {
    const res = await t.json('/api/usage', { headers: { 'x-api-key': freeKey } })
    expect(res.body.meta.tier).toBe('free')
    expect(res.body.data).toMatchObject({ tier: 'free', key_label: 'hobby', identified_by: 'api_key', limit: 600 })
  })

  it('an unknown well-formed key is 401 invalid_api_key', async () => {
    const res = await t.json('/api/uuid', { headers: { 'x-api-key': generateKey() } })
    expect(res.status).toBe(401)
    expect(res.body.error.code).toBe('invalid_api_key')
    expect(res.body.error.message).toMatch(/not known/)
    expect(res.headers.get('x-request-id')).toBe(res.body.request_id)
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('ratelimit-limit')).toBe('60')
    expect(res.headers.get('ratelimit-policy')).toBe('60;w=60')
  })

  it('a malformed key is 401 and says what a key looks like', async () => {
    for (const bad of ['', 'hello', 'il_short', `xx_${'a'.repeat(40)}`, `${proKey}!`]) {
      const res = await t.json('/api/uuid', { headers: { 'x-api-key': bad } })
      expect(res.status, bad).toBe(401)
      expect(res.body.error.message).toMatch(/il_/)
    }
  })

  it('a key that differs in one character is refused', async () => {
    const last = proKey.at(-1) === 'a' ? 'b' : 'a'
    const res = await t.json('/api/uuid', { headers: { 'x-api-key': proKey.slice(0, -1) + last } })
    expect(res.status).toBe(401)
  })

  it('the keys file holds hashes only', async () => {
    const text = await readFile(keysFile, 'utf8')
    expect(text).not.toContain(proKey)
    expect(text).toContain(hashKey(proKey))
  })

  it('a keys file that does not exist stops start-up, saying how to create it', async () => {
    const missing = join(dir, 'missing.json')
    const failure = startTestApp({ INFRALENS_KEYS_FILE: missing })
    await expect(failure).rejects.toThrow(ConfigError)
    await expect(failure).rejects.toThrow(`INFRALENS_KEYS_FILE=${missing}: the file does not exist`)
    await expect(failure).rejects.toThrow(/npm run key:create/)
  })

  it('a keys file that is not JSON, or not a keys file, stops start-up naming the problem', async () => {
    const notJson = join(dir, 'not-json.json')
    await writeFile(notJson, '{"keys": [')
    await expect(startTestApp({ INFRALENS_KEYS_FILE: notJson })).rejects.toThrow(/is not valid JSON/)
    const wrongShape = join(dir, 'wrong-shape.json')
    await writeFile(wrongShape, JSON.stringify({ keys: [{ hash: 'abc', tier: 'pro' }] }))
    await expect(startTestApp({ INFRALENS_KEYS_FILE: wrongShape })).rejects.toThrow(/keys\.0\.hash: must be a lowercase hex SHA-256/)
    const array = join(dir, 'array.json')
    await writeFile(array, '[]')
    await expect(startTestApp({ INFRALENS_KEYS_FILE: array })).rejects.toThrow(/is invalid: \(root\)/)
  })

  it('a key with a tier that has no limit stops start-up', async () => {
    const bad = join(dir, 'bad-keys.json')
    await writeFile(bad, JSON.stringify({ keys: [{ hash: hashKey(generateKey()), tier: 'gold', label: 'x' }] }))
    await expect(startTestApp({ INFRALENS_KEYS_FILE: bad })).rejects.toThrow(/tier "gold"/)
  })
})

describe('npm run key:create', () => {
  it('mints a key, prints it once, stores its hash, and the service accepts it', async () => {
    const file = join(dir, 'minted.json')
    const { stdout, stderr } = await run('npx', ['tsx', 'scripts/key-create.ts', '--tier', 'pro', '--label', 'ci', '--file', file], { cwd: ROOT })
    const key = stdout.trim()
    expect(key).toMatch(KEY_PATTERN)
    expect(stderr).toContain('pro')
    const stored = JSON.parse(await readFile(file, 'utf8')) as { keys: Array<{ hash: string; tier: string; label: string }> }
    expect(stored.keys).toEqual([expect.objectContaining({ hash: hashKey(key), tier: 'pro', label: 'ci' })])
    expect(JSON.stringify(stored)).not.toContain(key)
    const app = await startTestApp({ INFRALENS_KEYS_FILE: file })
    try {
      expect((await app.json('/api/uuid', { headers: { 'x-api-key': key } })).body.meta.tier).toBe('pro')
    } finally {
      await app.close()
    }
  })

  it('creates the configured keys file when it does not exist yet', async () => {
    const file = join(dir, 'fresh', 'keys.json')
    await mkdir(join(dir, 'fresh'))
    const { stdout } = await run('npx', ['tsx', 'scripts/key-create.ts', '--tier', 'free'], { cwd: ROOT, env: { ...process.env, INFRALENS_KEYS_FILE: file } })
    const stored = JSON.parse(await readFile(file, 'utf8')) as { keys: Array<{ hash: string; tier: string }> }
    expect(stored.keys).toEqual([expect.objectContaining({ hash: hashKey(stdout.trim()), tier: 'free' })])
  })

  it('leaves a file that is not a keys file alone and prints no key', async () => {
    const file = join(dir, 'not-keys.json')
    await writeFile(file, 'hello')
    const failed = await run('npx', ['tsx', 'scripts/key-create.ts', '--tier', 'free', '--file', file], { cwd: ROOT }).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    )
    expect(failed?.code).toBe(1)
    expect(failed?.stdout).toBe('')
    expect(failed?.stderr).toContain('is not valid JSON')
    expect(await readFile(file, 'utf8')).toBe('hello')
  })

  it('refuses an unknown tier', async () => {
    await expect(run('npx', ['tsx', 'scripts/key-create.ts', '--tier', 'gold', '--file', join(dir, 'x.json')], { cwd: ROOT })).rejects.toThrow(/Unknown tier/)
  })
})
