import { setTimeout as sleep } from 'node:timers/promises'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { InputError, NotFoundError, UpstreamError } from '../../runtime/errors.ts'
import cached from '../fixtures/registry/cached.ts'
import echo from '../fixtures/registry/echo.ts'
import expensive from '../fixtures/registry/expensive.ts'
import failing from '../fixtures/registry/failing.ts'
import items from '../fixtures/registry/items.ts'
import weirdKeys from '../fixtures/registry/weird-keys.ts'
import protoKeys from '../fixtures/registry/proto-keys.ts'
import slow from '../fixtures/registry/slow.ts'

export const ITEMS = [
  { id: 3, name: 'charlie', score: 7.5, tags: ['b', 'c'], owner: { name: 'Zed', email: '=cmd|calc' } },
  { id: 1, name: 'alpha', score: null, tags: [], owner: { name: 'Amy', email: 'amy@example.com' } },
  { id: 10, name: 'bravo, inc', score: 12, tags: ['a'], owner: { name: 'Bob "B"', email: 'bob@example.com' } },
  { id: 2, name: 'delta\nline', score: -1, tags: ['x', 'y', 'z'], owner: { name: 'Dee', email: '+1@example.com' } },
]

export const WEIRD = {
  '1st': 1,
  'a b': 'space',
  'xmlns:x': 'colon',
  'ok.key-name_1': true,
  '': 'empty',
  nested: { '2nd': [1, 2], list: [[1, 2], [3]] },
  ctrl: 'a\u0001b<&>"',
  empty: [],
  nothing: null,
}

/**
 * Own keys named like Object.prototype's members, as JSON.parse makes them from an
 * upstream's answer ("__proto__" included: JSON.parse defines it as an own key).
 */
export const PROTO_KEYS_JSON = '{"__proto__":{"polluted":"via data"},"constructor":{"prototype":{"polluted":"via data"}},"prototype":"p","toString":"t","hasOwnProperty":1,"list":[{"__proto__":"a","valueOf":2},{"__proto__":"b","valueOf":1}]}'

/** Resolvers for the fixture endpoints; `calls` counts resolver runs per endpoint. */
export function createFixturePlugin() {
  const calls = new Map<string, number>()
  /** Abort signals seen by test.slow, in call order (were they aborted in the end?). */
  const slowSignals: AbortSignal[] = []
  /** Flip to make test.cached's "upstream" fail (stale-if-error tests). */
  const toggles = { upstreamDown: false }
  const count = (name: string) => {
    const n = (calls.get(name) ?? 0) + 1
    calls.set(name, n)
    return n
  }
  const plugin = definePlugin({
    name: 'test-fixtures',
    setup(api) {
      api.resolve(items, () => ({ count: ITEMS.length, items: ITEMS, notes: [{ text: 'n1' }, { text: 'n2' }, { text: 'n3' }] }))
      api.resolve(cached, async ({ key, ttl, delay }, ctx) => {
        const call = count('test.cached')
        if (delay) await sleep(delay)
        if (toggles.upstreamDown) throw new UpstreamError('fake', 'timeout', 'The fake upstream did not answer in time.')
        if (ttl !== undefined) ctx.lowerTtl(ttl)
        return { key, call }
      })
      api.resolve(failing, ({ kind }) => {
        count('test.failing')
        if (kind === 'bug') throw new Error('secret internal detail')
        if (kind === 'upstream') throw new UpstreamError('fake', 'timeout', 'The fake upstream did not answer in time.')
        if (kind === 'notfound') throw new NotFoundError('No such thing.')
        throw new InputError('Bad thing.', { param: 'kind' })
      })
      api.resolve(weirdKeys, () => ({ ...WEIRD }))
      api.resolve(protoKeys, () => JSON.parse(PROTO_KEYS_JSON) as Record<string, unknown>)
      api.upstream('slow' as never, {} as never)
      api.resolve(slow, async ({ ms }, ctx) => {
        const signal = ctx.signal
        slowSignals.push(signal)
        const started = Date.now()
        await sleep(ms, undefined, { signal }).catch(() => {})
        return { waited_ms: Date.now() - started, aborted: signal.aborted }
      })
      api.resolve(expensive, () => ({ ok: true }))
      api.resolve(echo, ({ body }) => ({ entries: Array.isArray(body) ? body : body.entries }))
    },
  })
  return { plugin, calls, slowSignals, toggles }
}
