// Mozilla's guidelines site on the loopback internet: one HTTP server serving
// the TLS profiles document written for the tests
// (test/fixtures/tls-profiles/test-guidelines.json, not Mozilla's), in place of
// https://ssl-config.mozilla.org/guidelines/latest.json.
//   /guidelines/test-1.0.json   the document
//   /guidelines/latest.json     a 302 to it, as a "latest" alias may be
//   /guidelines/to-file.json    a 302 to a file: URL (never followed)
//   /guidelines/fail.json       HTTP 500
//   /guidelines/garbage.json    not JSON
//   /guidelines/wrong.json      JSON, not the guidelines schema
// Every request is logged (path), so a test can count loads.

import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { ROOT } from '../../runtime/app.ts'

export const TEST_GUIDELINES_FILE = join(ROOT, 'test', 'fixtures', 'tls-profiles', 'test-guidelines.json')

export interface FakeTlsProfiles {
  /** Base URL, http://127.0.0.1:port */
  base: string
  /** The URL of the "latest" alias. */
  url: string
  requests: string[]
  /** While true, the document itself answers HTTP 500 (a refresh that fails). */
  failing: boolean
  env: Record<string, string>
  close(): Promise<void>
}

export async function startFakeTlsProfiles(host = '127.0.0.1'): Promise<FakeTlsProfiles> {
  const document = readFileSync(TEST_GUIDELINES_FILE)
  const requests: string[] = []
  const state = { failing: false }
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    requests.push(path)
    if (path === '/guidelines/test-1.0.json' && state.failing) res.writeHead(503).end()
    else if (path === '/guidelines/test-1.0.json') res.writeHead(200, { 'content-type': 'application/json' }).end(document)
    else if (path === '/guidelines/latest.json') res.writeHead(302, { location: '/guidelines/test-1.0.json' }).end()
    else if (path === '/guidelines/to-file.json') res.writeHead(302, { location: 'file:///etc/passwd' }).end()
    else if (path === '/guidelines/fail.json') res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error')
    else if (path === '/guidelines/garbage.json') res.writeHead(200, { 'content-type': 'application/json' }).end('{"version": 5.7, "configurations": ')
    else if (path === '/guidelines/wrong.json') res.writeHead(200, { 'content-type': 'application/json' }).end('{"version": 5.7, "configurations": ["intermediate"]}')
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const { port } = server.address() as AddressInfo
  const base = `http://${host}:${port}`
  const url = `${base}/guidelines/latest.json`
  return {
    base,
    url,
    requests,
    get failing() {
      return state.failing
    },
    set failing(value: boolean) {
      state.failing = value
    },
    env: { INFRALENS_TLS_PROFILES_URL: url },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
