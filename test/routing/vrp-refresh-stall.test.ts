import { monitorEventLoopDelay } from 'node:perf_hooks'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { VALID } from '../../plugins/routing/rpki/vrp-index.ts'
import type { VrpSource } from '../../plugins/routing/rpki/vrp-source.ts'
import { VrpStore } from '../../plugins/routing/rpki/vrp-store.ts'

// "Refreshed periodically without blocking requests": while the store loads a
// large export (scan, expiry filter, index build), the event loop keeps turning —
// timers fire and validations are answered from the set in hand — with stalls far
// shorter than the refresh itself. Loading it in one go would stall the loop for
// the whole refresh. Bounds are generous (the box is shared); timing figures
// belong to bench/RESULTS-routing.md.

/** rpki-client JSON with `n` VRPs: /24s under /16s across 1.0.0.0-223.255.255.255, 1 in 8 IPv6. */
function bigExport(n: number): Buffer {
  const lines: string[] = []
  const expires = Math.floor(Date.now() / 1000) + 86_400
  for (let i = 0; i < n; i++) {
    const prefix = i % 8 === 7 ? `2001:db8:${(i >> 8).toString(16)}:${(i & 255).toString(16)}00::/56` : `${1 + ((i >> 16) % 223)}.${(i >> 8) & 255}.${i & 255}.0/24`
    lines.push(`{ "asn": ${64_512 + (i % 1000)}, "prefix": "${prefix}", "maxLength": ${prefix.includes(':') ? 56 : 24}, "ta": "ripe", "expires": ${expires} }`)
  }
  return Buffer.from(`{"metadata": {"buildtime": "${new Date().toISOString()}"}, "roas": [\n${lines.join(',\n')}\n]}`)
}

describe('refreshing a large export', () => {
  it('keeps serving: timers and validations run throughout, stalls far shorter than the refresh', async () => {
    const small = Buffer.from(JSON.stringify({ metadata: {}, roas: [{ asn: 64500, prefix: '192.0.2.0/24', maxLength: 24 }] }))
    const big = bigExport(300_000)
    let body: Buffer = small
    const source: VrpSource = { location: 'memory:', kind: 'file', fetch: async () => ({ changed: true, body, validators: { etag: null, lastModified: null } }) }
    const store = new VrpStore({ source, log: pino({ level: 'silent' }), refreshMs: 3_600_000, now: () => Date.now() })
    try {
      await store.refresh()
      body = big

      // A stand-in for requests: every 5 ms, validate against the set in hand.
      let answered = 0
      let longestGap = 0
      let last = performance.now()
      const requests = setInterval(() => {
        const now = performance.now()
        longestGap = Math.max(longestGap, now - last)
        last = now
        if (store.require().index.validate('192.0.2.0/24', 64500) === VALID) answered++
      }, 5)
      const loop = monitorEventLoopDelay({ resolution: 5 })
      loop.enable()
      const started = performance.now()
      const swapped = await store.refresh()
      const refreshMs = performance.now() - started
      loop.disable()
      clearInterval(requests)

      expect(swapped).toBe(true)
      expect(store.require().index.stats.vrps).toBe(300_000)
      const maxStallMs = loop.max / 1e6
      const context = `refresh ${Math.round(refreshMs)} ms, longest event-loop stall ${Math.round(maxStallMs)} ms, longest gap between requests ${Math.round(longestGap)} ms, ${answered} answered`
      // Requests were answered from the old set all along (in one go, none could be).
      expect(answered, context).toBeGreaterThanOrEqual(5)
      // The loop never stopped for half the refresh (typically a tenth of it; in one go: all of it).
      expect(maxStallMs, context).toBeLessThan(refreshMs / 2)
      expect(longestGap, context).toBeLessThan(refreshMs / 2)
    } finally {
      store.close()
    }
  }, 60_000)
})
