import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { loadRegistry } from '../../runtime/registry.ts'
import { FIXTURE_REGISTRY, startTestApp } from '../support/app.ts'

// Descriptor files written at test time must sit inside the project so their
// imports (zod, runtime/) resolve like any registry file.
let scratch: string
beforeAll(async () => {
  await mkdir(join(ROOT, 'test', '.tmp'), { recursive: true })
  scratch = await mkdtemp(join(ROOT, 'test', '.tmp', 'registry-'))
})
afterAll(() => rm(scratch, { recursive: true, force: true }))

const RUNTIME = join(ROOT, 'runtime', 'define-endpoint.ts')

function descriptorSource(name: string, path: string, extra = ''): string {
  return `import { z } from 'zod'
import { defineEndpoint } from ${JSON.stringify(RUNTIME)}
export default defineEndpoint({
  name: ${JSON.stringify(name)},
  tag: 'data',
  method: 'GET',
  path: ${JSON.stringify(path)},
  summary: 'Dropped in at test time',
  params: z.object({ word: z.string().min(2).meta({ description: 'a word to shout' }) }),
  data: z.object({ shout: z.string() }),
  cache: false,
  cost: 1,
  ${extra}
})
`
}

async function dropIn(sub: string, files: Record<string, string>): Promise<string> {
  const dir = join(scratch, sub)
  await mkdir(dir, { recursive: true })
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text)
  return dir
}

const shoutPlugin = (name: string) =>
  definePlugin({
    name: `shout-${name}`,
    setup(api) {
      const endpoint = api.endpoints().find((e) => e.name === name)!
      api.resolve(endpoint, (input) => ({ shout: String(input.word).toUpperCase() }))
    },
  })

describe('registry discovery', () => {
  it('a new descriptor file plus its resolver is routed, listed and documented with no other edit', async () => {
    const dir = await dropIn('ok', { 'shout.ts': descriptorSource('data.shout', '/api/data/shout/:word', "queryAlias: ['word'],") })
    const t = await startTestApp({}, { registryDirs: [join(ROOT, 'registry'), FIXTURE_REGISTRY, dir], plugins: [shoutPlugin('data.shout')] })
    try {
      const res = await t.json('/api/data/shout/hello')
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({ shout: 'HELLO' })
      expect(res.body.meta).toMatchObject({ endpoint: 'data.shout', category: 'data' })
      expect((await t.json('/api/data/shout?word=hey')).body.data).toEqual({ shout: 'HEY' })
      const bad = await t.json('/api/data/shout/x')
      expect(bad.status).toBe(400)
      expect(bad.body.error.details.param).toBe('word')

      const listed = (await t.json('/api/endpoints')).body.data as Array<Record<string, unknown>>
      expect(listed.find((e) => e.name === 'data.shout')).toMatchObject({
        method: 'GET',
        path: '/api/data/shout/:word',
        tag: 'data',
        summary: 'Dropped in at test time',
        query_alias: ['word'],
        params: [{ name: 'word', in: 'path', required: true, type: 'string', description: 'a word to shout' }],
      })

      const doc = (await t.json('/api/openapi.json')).body
      const op = doc.paths['/api/data/shout/{word}'].get
      expect(op.operationId).toBe('dataShout')
      expect(op.parameters[0]).toMatchObject({ name: 'word', in: 'path', required: true })
      // The ?word= form is the same operation, said on it: not a second path.
      expect(doc.paths).not.toHaveProperty('/api/data/shout')
      expect(op['x-query-alias']).toEqual({ path: '/api/data/shout', parameters: ['word'] })
      expect(op.description).toBe('Also answers `GET /api/data/shout?word={word}`: the same operation, with `word` as query parameter.')
    } finally {
      await t.close()
    }
  })

  it('start-up fails on a descriptor without a resolver', async () => {
    const dir = await dropIn('orphan', { 'orphan.ts': descriptorSource('data.orphan', '/api/data/orphan/:word') })
    await expect(startTestApp({}, { registryDirs: [join(ROOT, 'registry'), FIXTURE_REGISTRY, dir] })).rejects.toThrow(
      /No resolver registered for: data\.orphan/,
    )
  })

  it('start-up fails on a resolver without a descriptor', async () => {
    const stray = definePlugin({
      name: 'stray',
      setup(api) {
        api.resolve({ name: 'data.nowhere' } as never, (() => ({})) as never)
      },
    })
    await expect(startTestApp({}, { plugins: [stray] })).rejects.toThrow(/"data\.nowhere", which has no descriptor/)
  })

  it('start-up fails on two descriptors claiming one path', async () => {
    const dir = await dropIn('clash', {
      'a.ts': descriptorSource('data.clash-a', '/api/data/clash/:word'),
      'b.ts': descriptorSource('data.clash-b', '/api/data/clash/:other').replace("word: z.string()", 'other: z.string()'),
    })
    await expect(startTestApp({}, { registryDirs: [dir], plugins: [shoutPlugin('data.clash-a'), shoutPlugin('data.clash-b')] })).rejects.toThrow(
      /GET \/api\/data\/clash\/:other is already claimed by data\.clash-a/,
    )
  })

  it('start-up fails on a query alias that collides with another path', async () => {
    const dir = await dropIn('alias-clash', {
      'a.ts': descriptorSource('data.alias-a', '/api/uuid/:word', "queryAlias: ['word'],"),
    })
    await expect(startTestApp({}, { registryDirs: [join(ROOT, 'registry'), dir], plugins: [shoutPlugin('data.alias-a')] })).rejects.toThrow(
      /GET \/api\/uuid is already claimed by utilities\.uuid/,
    )
  })

  it('start-up fails on a preEncoded list the json format could not splice safely', async () => {
    const listData = "data: z.object({ items: z.array(z.string()) }), lists: ['items'],"
    const cases: Array<[string, RegExp]> = [
      ["preEncoded: 'shout',", /preEncoded "shout" must be a top-level list of data named in the endpoint's lists/],
      ["preEncoded: 'items.deep', lists: ['items.deep'],", /preEncoded "items.deep" must be a top-level list/],
    ]
    for (const [i, [extra, message]] of cases.entries()) {
      const dir = await dropIn(`pre-${i}`, { 'x.ts': descriptorSource(`data.pre${i}`, `/api/data/pre${i}/:word`, extra) })
      await expect(startTestApp({}, { registryDirs: [dir] })).rejects.toThrow(message)
    }
    const cached = descriptorSource('data.precached', '/api/data/precached/:word', `preEncoded: 'items', ${listData}`)
      .replace('  data: z.object({ shout: z.string() }),\n', '')
      .replace('cache: false', "cache: { ttl: '5m' }")
    const dir = await dropIn('pre-cached', { 'x.ts': cached })
    await expect(startTestApp({}, { registryDirs: [dir] })).rejects.toThrow(/preEncoded endpoints are never cached/)
  })

  it('start-up fails on a path param missing from params, and on a file that is not a descriptor', async () => {
    const dir = await dropIn('broken', { 'x.ts': descriptorSource('data.broken', '/api/data/broken/:nope') })
    await expect(startTestApp({}, { registryDirs: [dir] })).rejects.toThrow(/path param "nope" is missing from params/)
    const dir2 = await dropIn('junk', { 'junk.ts': 'export default { hello: 1 }\n' })
    await expect(startTestApp({}, { registryDirs: [dir2] })).rejects.toThrow(/not an endpoint descriptor/)
  })

  it('start-up fails when a plugin depends on a missing plugin', async () => {
    const needy = definePlugin({ name: 'needy', dependencies: ['ghost'], setup() {} })
    await expect(startTestApp({}, { plugins: [needy] })).rejects.toThrow(/depends on "ghost"/)
  })

  // The reference shows the summary as the operation's title and the description
  // below it: a description that only repeats the title tells a reader nothing.
  it('every descriptor in registry/ has a description of its own: sentences beyond the summary', async () => {
    const normal = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()
    const problems: string[] = []
    const endpoints = await loadRegistry([join(ROOT, 'registry')])
    for (const { name, summary, description } of endpoints) {
      if (typeof description !== 'string' || description.trim() === '') problems.push(`${name}: no description`)
      else if (normal(description).includes(normal(summary))) problems.push(`${name}: the description repeats the summary`)
      else if (description.trim().length < 60 || !/[.)]$/.test(description.trim())) problems.push(`${name}: the description is not a sentence or two (${JSON.stringify(description)})`)
    }
    expect(endpoints.length).toBeGreaterThan(60)
    expect(problems).toEqual([])
  })

  it('every real endpoint has a resolver and a unique name (the real app starts)', async () => {
    const t = await startTestApp()
    try {
      const names = t.endpoints.map((e) => e.name)
      expect(new Set(names).size).toBe(names.length)
      for (const n of ['utilities.uuid', 'utilities.uuid-bulk', 'utilities.ulid', 'utilities.ulid-bulk', 'utilities.hash', 'utilities.base64-encode', 'utilities.base64-decode', 'utilities.myip', 'meta.health', 'meta.ready', 'meta.endpoints', 'meta.openapi', 'meta.usage']) {
        expect(names).toContain(n)
      }
    } finally {
      await t.close()
    }
  })
})
