import type { z } from 'zod'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import { NotFoundError, UnavailableError } from '../../runtime/errors.ts'
import analyzeEndpoint from '../../registry/tls/analyze.ts'
import type { TlsTarget } from '../../registry/tls/schemas/host-param.ts'
import type { StarttlsProtocol } from '../../registry/tls/schemas/starttls-param.ts'
import type { TlsComplianceData } from '../../registry/tls/schemas/tls-compliance-data.ts'
import type { ProfileName } from './profiles/guidelines.ts'

// GET /api/tls/compliance/{host}: the analysis's compliance part on its own.
// The analysis is asked through its endpoint's cache, so an analyze and a
// compliance call for the same host cost one scan; without a guidelines
// document there is nothing to answer (503, as RPKI without VRPs).

/** The host as a request would give it: the analysis applies the STARTTLS port itself when none was written. */
function rawHost(target: TlsTarget, starttls: StarttlsProtocol | null): string {
  if (!starttls || target.port_given) return target.label
  return target.kind === 'ipv6' ? `[${target.host}]` : target.host
}

export async function tlsCompliance(ctx: ResolverContext, target: TlsTarget, profile: ProfileName | null, starttls: StarttlsProtocol | null): Promise<z.input<typeof TlsComplianceData>> {
  const { data } = await ctx.invoke(analyzeEndpoint, { host: rawHost(target, starttls), ...(starttls ? { starttls } : {}) })
  const c = data.compliance
  if (c.status !== 'checked' || c.guidelines === null) {
    throw new UnavailableError(`Compliance with the TLS profiles cannot be checked: ${c.reason ?? 'no guidelines document'}.`, { data: 'tls_profiles', reason: c.reason ?? null })
  }
  const profiles = profile ? c.profiles.filter((p) => p.profile === profile) : c.profiles
  if (profile && profiles.length === 0) {
    throw new NotFoundError(`The TLS guidelines ${c.guidelines.version} (${c.guidelines.source}) have no "${profile}" profile; they have ${c.profiles.map((p) => p.profile).join(', ')}.`, { profile })
  }
  return {
    host: data.host,
    port: data.port,
    server_name: data.server_name,
    address: data.address,
    starttls: data.starttls,
    grade: data.grade,
    guidelines: c.guidelines,
    profile,
    compliant: profiles.every((p) => p.compliant),
    compliant_with: profiles.filter((p) => p.compliant).map((p) => p.profile),
    profiles: profiles.map((p) => ({ profile: p.profile, compliant: p.compliant, deviation_count: p.deviations.length, not_checked: p.not_checked, oldest_clients: p.oldest_clients })),
    deviations: profiles.flatMap((p) => p.deviations),
  }
}
