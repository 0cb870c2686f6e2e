import { readFileSync } from 'node:fs'
import { ConfigError } from '../../runtime/config.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import analyze from '../../registry/tls/analyze.ts'
import certificate from '../../registry/tls/certificate.ts'
import ciphers from '../../registry/tls/ciphers.ts'
import compliance from '../../registry/tls/compliance.ts'
import connection from '../../registry/tls/connection.ts'
import { tlsAnalyze } from './analyze.ts'
import { tlsCertificate } from './certificate.ts'
import { tlsCiphers } from './ciphers.ts'
import { tlsCompliance } from './compliance.ts'
import { tlsConnection } from './connection.ts'
import { tlsSettings } from './settings.ts'
import type { TlsSettings } from './target.ts'
import { createTrustStore, loadSystemRoots } from './trust-store.ts'
import { defineProfileStore } from './profiles/profile-store.ts'
import { parseGuidelines } from './profiles/guidelines.ts'

/**
 * A profiles file the operator names must be there and readable at start: a
 * typo in the path would otherwise only show as "unavailable" in answers. (A
 * URL is not fetched at start: it may be down for a while, which the answers say.)
 */
function checkProfilesFile(path: string): void {
  try {
    parseGuidelines(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new ConfigError(`INFRALENS_TLS_PROFILES_FILE=${path}: ${(error as Error).message}. It must be a Mozilla server-side TLS guidelines JSON document (https://ssl-config.mozilla.org/guidelines/<version>.json); unset it to read INFRALENS_TLS_PROFILES_URL instead.`)
  }
}

/** An analysis whose compliance part had no guidelines is kept this long, not the descriptor's 15 minutes. */
const NO_PROFILES_TTL_S = 300

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
    const base = tlsSettings(api.config, api.network, createTrustStore({ system, ...(extraCaFile ? { extraPem: readFileSync(extraCaFile, 'utf8') } : {}) }))
    if (api.config.tlsProfilesFile) checkProfilesFile(api.config.tlsProfilesFile)
    const profiles = defineProfileStore({
      source: { url: api.config.tlsProfilesUrl, file: api.config.tlsProfilesFile },
      network: api.network,
      log: api.log,
      now: () => api.clock.now(),
      timeoutMs: base.handshakeTimeoutMs,
    })
    const settings: TlsSettings = { ...base, profiles }
    api.upstream('tls', settings)
    api.resolve(connection, ({ host, starttls }, ctx) => tlsConnection(settings, host, ctx.signal, new Date(ctx.clock.now()), starttls ?? null))
    api.resolve(certificate, ({ host, starttls }, ctx) => tlsCertificate(settings, host, ctx.signal, new Date(ctx.clock.now()), starttls ?? null))
    api.resolve(ciphers, ({ host, starttls }, ctx) => tlsCiphers(settings, host, ctx.signal, starttls ?? null))
    api.resolve(analyze, async ({ host, starttls }, ctx) => {
      const answer = await tlsAnalyze(settings, host, ctx.signal, new Date(ctx.clock.now()), starttls ?? null)
      if (answer.compliance.status === 'unavailable') ctx.lowerTtl(NO_PROFILES_TTL_S)
      return answer
    })
    api.resolve(compliance, ({ host, profile, starttls }, ctx) => tlsCompliance(ctx, host, profile ?? null, starttls ?? null))
  },
})
