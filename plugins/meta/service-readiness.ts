import type { Gathered } from '../../runtime/cluster/worker-link.ts'

// /api/ready of a cluster answers for the whole service: every worker runs its
// own checks (its data loaded, its Redis connection) and the service is ready
// only when every worker is, and every worker the service should have answers.
// The answer keeps the single process's shape: one entry per check, ok only if
// ok in every worker (the failing workers named), and a `workers` check.

export interface CheckResult {
  name: string
  ok: boolean
  degraded?: string
  error?: string
  ms: number
}

export function serviceChecks(gathered: Gathered<CheckResult[]>, ms: number): CheckResult[] {
  const byName = new Map<string, Array<{ worker: number; check: CheckResult }>>()
  for (const { worker, value } of gathered.answers) {
    for (const check of value) {
      const list = byName.get(check.name) ?? []
      list.push({ worker, check })
      byName.set(check.name, list)
    }
  }
  const merged: CheckResult[] = []
  for (const [name, list] of byName) {
    const said = (pick: (c: CheckResult) => string | undefined) =>
      list
        .filter(({ check }) => pick(check) !== undefined)
        .map(({ worker, check }) => `worker ${worker}: ${pick(check)!}`)
        .join('; ')
    const failed = list.filter(({ check }) => !check.ok)
    const degraded = said((c) => c.degraded)
    const result: CheckResult = { name, ok: failed.length === 0, ms: Math.max(...list.map(({ check }) => check.ms)) }
    if (degraded) result.degraded = degraded
    if (failed.length) result.error = said((c) => (c.ok ? undefined : c.error))
    merged.push(result)
  }
  const missing = gathered.missing.map((m) => `worker ${m.worker}: ${m.reason}`).join('; ')
  const workers: CheckResult = { name: 'workers', ok: gathered.missing.length === 0, ms }
  if (missing) workers.error = `${gathered.answers.length} of ${gathered.expected} workers answered (${missing})`
  return [...merged, workers]
}
