import type { z } from 'zod'
import type { LoadedVrps, VrpStore } from './rpki/vrp-store.ts'
import type { VrpSetData } from '../../registry/network/schemas/routing-data.ts'

/** What an answer says about the VRP set it used: where from, how old, how big, how the last refresh went. */
export function vrpSetInfo(store: VrpStore, set: LoadedVrps, now = store.now()): z.input<typeof VrpSetData> {
  const status = store.status()
  const generated = set.generatedAt === null ? Number.NaN : Date.parse(set.generatedAt)
  const since = Number.isNaN(generated) ? set.loadedAt : generated
  const failing = status.lastError !== null && status.lastError.at > (status.checkedAt ?? 0)
  return {
    source: set.source,
    generated_at: set.generatedAt,
    loaded_at: new Date(set.loadedAt).toISOString(),
    checked_at: status.checkedAt === null ? null : new Date(status.checkedAt).toISOString(),
    age_seconds: Math.max(0, Math.floor((now - since) / 1000)),
    stale: now - since > store.staleAfterMs,
    vrps: set.index.stats.vrps,
    ipv4: set.index.stats.ipv4,
    ipv6: set.index.stats.ipv6,
    rejected: set.index.stats.rejected,
    expired_dropped: set.expiredDropped,
    next_expiry: set.nextExpiryAt === null ? null : new Date(set.nextExpiryAt).toISOString(),
    last_refresh_error: failing ? status.lastError!.message : null,
  }
}
