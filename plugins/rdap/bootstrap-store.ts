import type { Logger } from 'pino'
import type { GuardedNetwork } from '../../runtime/net/guarded-network.ts'
import type { BootstrapKind, BootstrapTable } from './bootstrap.ts'
import { parseBootstrap } from './bootstrap.ts'
import { snapshotTable } from './snapshot.ts'

// The bootstrap files, fetched from the configured base (through the guarded
// network like every other upstream), kept for a day, and replaced by the bundled
// snapshot when they cannot be had: a dead data.iana.org must not take every RDAP
// lookup down with it. A failed refresh keeps the last good live copy, and is
// retried after `retryMs` rather than on every request.

export interface BootstrapSource {
  kind: BootstrapKind
  origin: 'live' | 'snapshot'
  publication: string | null
  url: string
  fetched_at: string | null
  /** Why the snapshot (or a stale live copy) is in use. */
  error: string | null
}

export interface LoadedBootstrap {
  table: BootstrapTable
  source: BootstrapSource
}

export interface BootstrapStoreOptions {
  network: GuardedNetwork
  baseUrl: string
  timeoutMs: number
  log: Logger
  ttlMs?: number
  retryMs?: number
  /** The service clock (ms): refresh schedule and fetched_at. */
  now: () => number
}

export interface BootstrapStore {
  get(kind: BootstrapKind): Promise<LoadedBootstrap>
  /** Drop what was fetched (tests, and operators after fixing the URL). */
  clear(): void
}

interface Slot {
  loaded: LoadedBootstrap | null
  expiresAt: number
  pending: Promise<LoadedBootstrap> | null
}

const DAY = 24 * 60 * 60 * 1000

export function createBootstrapStore(options: BootstrapStoreOptions): BootstrapStore {
  const ttl = options.ttlMs ?? DAY
  const retry = options.retryMs ?? 10 * 60 * 1000
  const now = options.now
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`
  const slots = new Map<BootstrapKind, Slot>()

  async function fetchTable(kind: BootstrapKind, url: string): Promise<BootstrapTable> {
    const res = await options.network.request(url, {
      headers: { accept: 'application/json' },
      timeoutMs: options.timeoutMs,
      maxBytes: 4 * 1024 * 1024,
      upstream: 'rdap',
    })
    if (res.status !== 200) throw new Error(`${url} answered HTTP ${res.status}`)
    let json: unknown
    try {
      json = JSON.parse(res.body.toString('utf8'))
    } catch {
      throw new Error(`${url} did not send JSON`)
    }
    return parseBootstrap(kind, json)
  }

  async function load(kind: BootstrapKind, slot: Slot): Promise<LoadedBootstrap> {
    const url = `${base}${kind}.json`
    try {
      const table = await fetchTable(kind, url)
      const loaded: LoadedBootstrap = {
        table,
        source: { kind, origin: 'live', publication: table.publication, url, fetched_at: new Date(now()).toISOString(), error: null },
      }
      slot.loaded = loaded
      slot.expiresAt = now() + ttl
      return loaded
    } catch (error) {
      const message = (error as Error).message
      slot.expiresAt = now() + retry
      if (slot.loaded?.source.origin === 'live') {
        options.log.warn({ kind, url, err: message }, 'RDAP bootstrap refresh failed; keeping the previous copy')
        slot.loaded = { ...slot.loaded, source: { ...slot.loaded.source, error: message } }
        return slot.loaded
      }
      options.log.warn({ kind, url, err: message }, 'RDAP bootstrap unavailable; using the bundled snapshot')
      const table = snapshotTable(kind)
      slot.loaded = { table, source: { kind, origin: 'snapshot', publication: table.publication, url, fetched_at: null, error: message } }
      return slot.loaded
    }
  }

  return {
    get(kind) {
      let slot = slots.get(kind)
      if (!slot) {
        slot = { loaded: null, expiresAt: 0, pending: null }
        slots.set(kind, slot)
      }
      if (slot.loaded && now() < slot.expiresAt) return Promise.resolve(slot.loaded)
      // One fetch at a time per file; concurrent requests wait for it. It runs on its
      // own deadline, not a caller's signal, since its result serves everyone.
      if (slot.pending) return slot.pending
      const s = slot
      const pending = load(kind, s).finally(() => {
        s.pending = null
      })
      s.pending = pending
      return pending
    },
    clear() {
      slots.clear()
    },
  }
}
