import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { CLIENT_TYPES_FILE, generateClientTypes } from '../../scripts/docs-client.ts'
import { send, startExampleService } from '../../scripts/docs-examples.ts'
import { clientCheck } from './client-check.ts'

// The typed client: types generated from the document the server serves, used by
// openapi-fetch against that server over a real socket.

let world: Awaited<ReturnType<typeof startExampleService>>
beforeAll(async () => {
  world = await startExampleService()
})
afterAll(async () => {
  await world?.close()
})

describe('typed client (openapi-typescript + openapi-fetch)', () => {
  it('test/client/infralens-api.ts is what openapi-typescript makes of the served /api/openapi.json', async () => {
    // On a connection of its own (closed after): a kept-alive one would sit idle in
    // fetch's pool while the next test compiles (seconds without an event loop), past
    // the server's keep-alive timeout, and the client test would then send on it.
    const document = (await send(world.base, { method: 'GET', path: '/api/openapi.json' })).body as Record<string, unknown>
    const generated = await generateClientTypes(document)
    expect(generated === readFileSync(CLIENT_TYPES_FILE, 'utf8'), 'test/client/infralens-api.ts is stale: run `npm run docs:client`').toBe(true)
  }, 30_000)

  it('client-check.ts compiles against the generated types (strict, with the expected type errors)', () => {
    const configFile = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (file) => ts.sys.readFile(file))
    const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT)
    const program = ts.createProgram([join(ROOT, 'test', 'client', 'client-check.ts')], { ...options, noEmit: true })
    const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    expect(errors).toEqual([])
  }, 60_000)

  it('calls three endpoints and gets typed answers and a typed error', async () => {
    const result = await clientCheck(world.base.replace(/\/$/, ''))
    expect(result.uuid.version).toBe(7)
    expect(result.uuid.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(result.uuid.requestId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
    expect(result.addresses).toEqual(['93.184.215.14'])
    expect(result.digest).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824')
    expect(result.error).toEqual({ status: 400, code: 'bad_request', param: 'count' })
  })
})
