// A typed client of the API: openapi-fetch with the types openapi-typescript made
// from /api/openapi.json (./infralens-api.ts, `npm run docs:client`). `npm run
// typecheck` compiles this file against them, so a field the document does not
// promise is a compile error; test/client/client.test.ts runs it against a real
// server. By hand: npx tsx test/client/client-check.ts http://127.0.0.1:3000

import { pathToFileURL } from 'node:url'
import createClient from 'openapi-fetch'
import type { components, paths } from './infralens-api.ts'

type ErrorEnvelope = components['schemas']['ErrorEnvelope']

export interface ClientCheck {
  uuid: { uuid: string; version: number; requestId: string }
  addresses: string[]
  digest: string
  error: { status: number; code: ErrorEnvelope['error']['code']; param: unknown }
}

export async function clientCheck(baseUrl: string): Promise<ClientCheck> {
  // JSON answers: the document also lists yaml, xml and csv for every operation.
  const client = createClient<paths, 'application/json'>({ baseUrl })

  // 1. A query parameter typed as the enum "4" | "7".
  const uuid = await client.GET('/api/uuid', { params: { query: { version: '7' } } })
  if (!uuid.data) throw new Error(`GET /api/uuid: ${uuid.response.status} ${JSON.stringify(uuid.error)}`)
  const { data: one, request_id } = uuid.data

  // 2. A path parameter; the records are typed down to each field.
  const a = await client.GET('/api/dns/a/{domain}', { params: { path: { domain: 'example.com' } } })
  if (!a.data) throw new Error(`GET /api/dns/a/example.com: ${a.response.status} ${JSON.stringify(a.error)}`)
  const addresses: string[] = a.data.data.records.flatMap((record) => ('address' in record && typeof record.address === 'string' ? [record.address] : []))

  // 3. Path and query together.
  const hash = await client.GET('/api/hash/{algorithm}', { params: { path: { algorithm: 'sha256' }, query: { input: 'hello' } } })
  if (!hash.data) throw new Error(`GET /api/hash/sha256: ${hash.response.status} ${JSON.stringify(hash.error)}`)
  const digest: string = hash.data.data.digest

  // And an error: typed as the error envelope, its code one of the documented ones.
  const bad = await client.GET('/api/uuid/bulk', { params: { query: { count: '5000' } } })
  if (!bad.error) throw new Error('GET /api/uuid/bulk?count=5000 should have been refused')
  const code: ErrorEnvelope['error']['code'] = bad.error.error.code

  return {
    uuid: { uuid: one.uuid, version: one.version, requestId: request_id },
    addresses,
    digest,
    error: { status: bad.response.status, code, param: (bad.error.error.details as { param?: unknown }).param },
  }
}

/** Never called: the compiler must refuse what the document does not allow. */
export function typeErrors(client: ReturnType<typeof createClient<paths, 'application/json'>>): void {
  // @ts-expect-error version is "4" | "7"
  void client.GET('/api/uuid', { params: { query: { version: '5' } } })
  // @ts-expect-error the domain path parameter is required
  void client.GET('/api/dns/a/{domain}', { params: { path: {} } })
  // @ts-expect-error no such path
  void client.GET('/api/nope')
  // @ts-expect-error /api/uuid has no list: the server answers limit= with a 400, so the document does not offer it
  void client.GET('/api/uuid', { params: { query: { limit: 5 } } })
  // @ts-expect-error nor sort=
  void client.GET('/api/uuid', { params: { query: { sort: 'uuid' } } })
  // @ts-expect-error the document itself has no envelope to make compact
  void client.GET('/api/openapi.json', { params: { query: { compact: 'true' } } })
  // A list pages and sorts; an array as data too.
  void client.GET('/api/uuid/bulk', { params: { query: { count: '5', sort: 'value', order: 'desc', limit: 2, offset: 1 } } })
  void client.GET('/api/endpoints', { params: { query: { sort: 'path', limit: 5 } } })
  void client.GET('/api/uuid').then(({ data }) => {
    // @ts-expect-error data.uuid is a string
    const n: number = data!.data.uuid
    return n
  })
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const base = process.argv[2] ?? 'http://127.0.0.1:3000'
  console.log(JSON.stringify(await clientCheck(base), null, 2))
}
