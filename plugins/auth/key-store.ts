import { timingSafeEqual } from 'node:crypto'
import { stat } from 'node:fs/promises'
import type { Logger } from 'pino'
import type { KeyRecord } from './api-keys.ts'
import { KeysFileError, hashKey, readKeysFile } from './api-keys.ts'

interface StoredKey {
  hash: Buffer
  tier: string
  label: string
  id: string
}

/**
 * The keys the service accepts, read from the keys file and re-read when the file
 * changes (so a new key works without a restart).
 */
export class KeyStore {
  #byHash = new Map<string, StoredKey>()
  #mtime = 0
  #timer: NodeJS.Timeout | undefined

  constructor(
    private readonly path: string | undefined,
    private readonly tiers: ReadonlySet<string>,
    private readonly log: Logger,
  ) {}

  /** Reads the file once; a missing or invalid file stops start-up (KeysFileError). */
  async load(): Promise<void> {
    if (!this.path) return
    const info = await stat(this.path).catch(() => undefined)
    this.#mtime = info?.mtimeMs ?? 0
    this.#set(await readKeysFile(this.path))
  }

  #set(records: readonly KeyRecord[]): void {
    for (const record of records) {
      if (!this.tiers.has(record.tier)) {
        throw new KeysFileError(`Key "${record.label}" has tier "${record.tier}", which has no rate limit (tiers: ${[...this.tiers].join(', ')})`)
      }
    }
    this.#byHash = new Map(
      records.map((r) => [r.hash, { hash: Buffer.from(r.hash, 'hex'), tier: r.tier, label: r.label, id: r.hash.slice(0, 16) }]),
    )
  }

  /** Polls the file's mtime; a broken edit is logged and the previous keys stay. */
  watch(intervalMs = 2000): void {
    if (!this.path || this.#timer) return
    const path = this.path
    this.#timer = setInterval(() => {
      void (async () => {
        const info = await stat(path).catch(() => undefined)
        const mtime = info?.mtimeMs ?? 0
        if (mtime === this.#mtime) return
        this.#mtime = mtime
        try {
          this.#set(await readKeysFile(path))
          this.log.info({ keys: this.#byHash.size }, 'keys file reloaded')
        } catch (error) {
          this.log.error({ err: error }, 'keys file reload failed; keeping the previous keys')
        }
      })()
    }, intervalMs)
    this.#timer.unref()
  }

  stop(): void {
    clearInterval(this.#timer)
    this.#timer = undefined
  }

  get size(): number {
    return this.#byHash.size
  }

  /** The key's record, or undefined. The final comparison runs in constant time. */
  find(key: string): StoredKey | undefined {
    const digest = hashKey(key)
    const stored = this.#byHash.get(digest)
    if (!stored) return undefined
    return timingSafeEqual(stored.hash, Buffer.from(digest, 'hex')) ? stored : undefined
  }
}
