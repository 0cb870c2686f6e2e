import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../../runtime/app.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { toSeconds } from '../../runtime/duration.ts'
import { UnavailableError } from '../../runtime/errors.ts'
import endpointsEndpoint from '../../registry/meta/endpoints.ts'
import health from '../../registry/meta/health.ts'
import openapi from '../../registry/meta/openapi.ts'
import ready from '../../registry/meta/ready.ts'
import usage from '../../registry/meta/usage.ts'
import { loadExamples } from './examples.ts'
import { describeParams } from './describe-params.ts'
import { buildOpenApi } from './openapi-document.ts'
import type { CheckResult } from './service-readiness.ts'
import { serviceChecks } from './service-readiness.ts'

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version

export default definePlugin({
  name: 'meta',
  setup(api) {
    const startedAt = new Date(api.clock.now())

    // In a cluster the service started with its primary, not with this worker.
    const cluster = api.cluster
    api.resolve(health, () => {
      if (!cluster) return { status: 'ok' as const, version: VERSION, uptime_seconds: Math.round(process.uptime()), started_at: startedAt.toISOString(), node: process.version }
      return cluster.status().then(
        (service) => ({
          status: 'ok' as const,
          version: VERSION,
          uptime_seconds: Math.round((api.clock.now() - service.startedAt) / 1000),
          started_at: new Date(service.startedAt).toISOString(),
          node: process.version,
        }),
        (error: unknown) => {
          throw new UnavailableError(`The service's primary process is not answering (${(error as Error).message}).`)
        },
      )
    })

    // This process's checks; in a cluster every worker runs them and the service
    // is ready when all of its workers are (service-readiness.ts).
    const localChecks = (): Promise<CheckResult[]> =>
      Promise.all(
        api.readinessChecks().map(async ({ name, check }) => {
          const start = performance.now()
          try {
            const degraded = await check()
            const ms = Math.round(performance.now() - start)
            return typeof degraded === 'string' ? { name, ok: true, degraded, ms } : { name, ok: true, ms }
          } catch (error) {
            return { name, ok: false, error: (error as Error).message, ms: Math.round(performance.now() - start) }
          }
        }),
      )
    cluster?.answer('readiness', localChecks)
    api.resolve(ready, async () => {
      let checks: CheckResult[]
      if (cluster) {
        const start = performance.now()
        const gathered = await cluster.gather<CheckResult[]>('readiness')
        checks = serviceChecks(gathered, Math.round(performance.now() - start))
      } else checks = await localChecks()
      const failed = checks.filter((c) => !c.ok)
      if (failed.length) throw new UnavailableError(`Not ready: ${failed.map((c) => `${c.name} (${c.error})`).join('; ')}`, { checks })
      return { ready: true, checks }
    })

    api.resolve(endpointsEndpoint, () =>
      [...api.endpoints()]
        .sort((a, b) => a.path.localeCompare(b.path))
        .map((e) => ({
          name: e.name,
          method: e.method,
          path: e.path,
          tag: e.tag,
          summary: e.summary,
          params: describeParams(e).map(({ schema: _schema, ...rest }) => rest),
          query_alias: [...(e.queryAlias ?? [])],
          cost: e.cost,
          cache_ttl_seconds: e.cache === false ? null : toSeconds(e.cache.ttl),
          lists: [...(e.lists ?? [])],
          upstreams: [...(e.upstreams ?? [])],
        })),
    )

    // Built once: the registry does not change while the process runs.
    let document: Record<string, unknown> | undefined
    api.resolve(openapi, () => (document ??= buildOpenApi(api.endpoints(), VERSION, loadExamples())))

    api.resolve(usage, (_input, ctx) => {
      const state = ctx.caller.rateLimit
      const limit = ctx.config.rateLimits[ctx.caller.tier] ?? 0
      return {
        tier: ctx.caller.tier,
        key_label: ctx.caller.keyLabel ?? null,
        identified_by: ctx.caller.keyLabel !== undefined ? ('api_key' as const) : ('ip' as const),
        limit,
        remaining: state?.remaining ?? limit,
        reset_seconds: state?.resetSeconds ?? 0,
        window_seconds: state?.windowSeconds ?? 60,
        tiers: { ...ctx.config.rateLimits },
      }
    })
  },
})
