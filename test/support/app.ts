import { Writable } from 'node:stream'
import { join } from 'node:path'
import type { AppOptions, InfralensApp } from '../../runtime/app.ts'
import { ROOT, createApp } from '../../runtime/app.ts'
import { createFixturePlugin } from './fixture-plugin.ts'
import { HERMETIC_ENV } from './hermetic-env.ts'

export const FIXTURE_REGISTRY = join(ROOT, 'test', 'fixtures', 'registry')

const NOWHERE = HERMETIC_ENV

export interface TestApp extends InfralensApp {
  /** In-process request; path relative to the service root. */
  request(path: string, init?: RequestInit): Promise<Response>
  /** Request and parse the JSON body. */
  json(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: Record<string, any> }>
  logs: Array<Record<string, unknown>>
  calls: Map<string, number>
  slowSignals: AbortSignal[]
  toggles: { upstreamDown: boolean }
  /** Polls /api/ready until it answers 200 (data loaded, Redis connected); throws after 10 s. */
  untilReady(): Promise<Record<string, any>>
}

/**
 * The real service (all real plugins and descriptors) plus the fixture endpoints,
 * configured only through env, logging into an array the test can read.
 */
export async function startTestApp(env: Record<string, string> = {}, options: Omit<AppOptions, 'env' | 'logStream'> = {}): Promise<TestApp> {
  const logs: Array<Record<string, unknown>> = []
  const logStream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  })
  const fixtures = createFixturePlugin()
  const service = await createApp({
    // Nothing a test does may leave the machine: unless a test brings its own
    // loopback resolvers, DNS goes to a closed loopback port and fails fast.
    env: { LOG_LEVEL: 'info', ...NOWHERE, ...env },
    registryDirs: options.registryDirs ?? [join(ROOT, 'registry'), FIXTURE_REGISTRY],
    plugins: [fixtures.plugin, ...(options.plugins ?? [])],
    ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    logStream,
  })
  const request = async (path: string, init?: RequestInit) => service.app.request(path, init)
  return {
    ...service,
    request,
    async json(path, init) {
      const res = await request(path, init)
      const text = await res.text()
      return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, any>) : {} }
    },
    logs,
    calls: fixtures.calls,
    slowSignals: fixtures.slowSignals,
    toggles: fixtures.toggles,
    async untilReady() {
      let last: Record<string, any> = {}
      for (let i = 0; i < 200; i++) {
        const res = await request('/api/ready')
        last = JSON.parse(await res.text()) as Record<string, any>
        const redis = (last.data?.checks as Array<{ name: string; degraded?: string }> | undefined)?.find((c) => c.name === 'redis')
        if (res.status === 200 && !redis?.degraded) return last.data as Record<string, any>
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      throw new Error(`not ready after 10 s: ${JSON.stringify(last)}`)
    },
  }
}
