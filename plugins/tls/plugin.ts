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
import { tlsSettings } from './settings.ts'
import type { TlsSettings } from './target.ts'
import { createTrustStore, loadSystemRoots } from './trust-store.ts'

declare module '../../runtime/define-plugin.ts' {
  interface UpstreamRegistry {
    tls: TlsSettings
  }
}

export default definePlugin({
  name: 'tls',
  setup(api) {
    const { extraCaFile, systemCaFile } = api.config
    const system = loadSystemRoots(systemCaFile)
    api.log.debug({ roots: system.pems.length, origin: system.origin }, 'TLS system roots')
    const settings = tlsSettings(api.config, api.network, createTrustStore({ system, ...(extraCaFile ? { extraPem: readFileSync(extraCaFile, 'utf8') } : {}) }))
    api.upstream('tls', settings)
    api.resolve(connection, ({ host, starttls }, ctx) => tlsConnection(settings, host, ctx.signal, new Date(ctx.clock.now()), starttls ?? null))
    api.resolve(certificate, ({ host, starttls }, ctx) => tlsCertificate(settings, host, ctx.signal, new Date(ctx.clock.now()), starttls ?? null))
    api.resolve(ciphers, ({ host, starttls }, ctx) => tlsCiphers(settings, host, ctx.signal, starttls ?? null))
    api.resolve(analyze, ({ host, starttls }, ctx) => tlsAnalyze(settings, host, ctx.signal, new Date(ctx.clock.now()), starttls ?? null))
  },
})
