import { readFileSync } from 'node:fs'
import { definePlugin } from '../../runtime/define-plugin.ts'
import analyze from '../../registry/tls/analyze.ts'
import certificate from '../../registry/tls/certificate.ts'
import ciphers from '../../registry/tls/ciphers.ts'
import connection from '../../registry/tls/connection.ts'
import { tlsAnalyze } from './analyze.ts'
import { tlsCertificate } from './certificate.ts'
import { tlsCiphers } from './ciphers.ts'
import { tlsConnection } from './connection.ts'
import type { TlsSettings } from './target.ts'
import { PROBE_CONCURRENCY } from './target.ts'
import { createTrustStore, loadSystemRoots } from './trust-store.ts'

declare module '../../runtime/define-plugin.ts' {
  interface UpstreamRegistry {
    tls: TlsSettings
  }
}

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(max, Math.round(value)))

export default definePlugin({
  name: 'tls',
  setup(api) {
    const { requestTimeoutMs, extraCaFile, systemCaFile } = api.config
    const system = loadSystemRoots(systemCaFile)
    api.log.debug({ roots: system.pems.length, origin: system.origin }, 'TLS system roots')
    const settings: TlsSettings = {
      network: api.network,
      trust: createTrustStore({ system, ...(extraCaFile ? { extraPem: readFileSync(extraCaFile, 'utf8') } : {}) }),
      // A handshake gets a third of the request deadline and a hello probe a fifth:
      // a silent host is reported as a 502 naming it, well before the 504.
      handshakeTimeoutMs: clamp(requestTimeoutMs / 3, 300, 10_000),
      probeTimeoutMs: clamp(requestTimeoutMs / 5, 200, 5_000),
      concurrency: PROBE_CONCURRENCY,
    }
    api.upstream('tls', settings)
    api.resolve(connection, ({ host }, ctx) => tlsConnection(settings, host, ctx.signal))
    api.resolve(certificate, ({ host }, ctx) => tlsCertificate(settings, host, ctx.signal))
    api.resolve(ciphers, ({ host }, ctx) => tlsCiphers(settings, host, ctx.signal))
    api.resolve(analyze, ({ host }, ctx) => tlsAnalyze(settings, host, ctx.signal))
  },
})
