// Things worth fixing even when the chain validates: SHA-1 DS digests (RFC 8624
// §3.3), RSA keys under 2048 bits, signatures about to expire, algorithms this
// validator skips, NSEC3 iterations above 0 (RFC 9276 §3.1).

import type { DnskeyRecord, RrsigRecord } from '../../runtime/net/dns/dns-records.ts'
import { algorithmName, algorithmSupported, isRsa } from './algorithms.ts'
import type { ZoneLink } from './chain-types.ts'
import { keySizeOf } from './public-key.ts'
import type { SigCheck } from './rrsig-check.ts'
import { isoOf, rrsigTimes } from './rrsig-times.ts'
import type { ValidationResult } from './validator.ts'

export interface Finding {
  severity: 'critical' | 'warning' | 'info'
  code: string
  zone: string
  message: string
}

const EXPIRY_WARNING_SECONDS = 7 * 86_400

/** Zones once each, in the order they were first checked. */
export function uniqueLinks(links: readonly ZoneLink[]): ZoneLink[] {
  const seen = new Set<string>()
  return links.filter((l) => !seen.has(l.zone.text) && seen.add(l.zone.text))
}

/** Every signature check the result holds, with the zone it belongs to. */
function allSignatures(result: ValidationResult): Array<{ zone: string; check: SigCheck }> {
  const out: Array<{ zone: string; check: SigCheck }> = []
  for (const link of uniqueLinks(result.links)) {
    for (const check of [...link.dsSignatures, ...link.dnskeySignatures, ...(link.denial?.signatures ?? [])]) out.push({ zone: link.zone.text, check })
  }
  const signerOf = (rrsig: RrsigRecord) => rrsig.data.signerName || '.'
  for (const step of result.cnames) for (const check of step.signatures) out.push({ zone: signerOf(check.rrsig), check })
  for (const check of [...result.answer.signatures, ...(result.answer.denial?.signatures ?? [])]) out.push({ zone: signerOf(check.rrsig), check })
  return out
}

function keyFindings(zone: string, key: DnskeyRecord): Finding[] {
  const { algorithm, keyTag } = key.data
  if (!algorithmSupported(algorithm)) {
    return [{ severity: 'info', code: 'unsupported_algorithm', zone, message: `DNSKEY ${keyTag} uses ${algorithmName(algorithm)} (${algorithm}), which this validator does not implement` }]
  }
  const bits = keySizeOf(algorithm, key.data.key)
  if (isRsa(algorithm) && bits !== null && bits < 2048) {
    return [{ severity: bits < 1024 ? 'critical' : 'warning', code: 'rsa_key_small', zone, message: `DNSKEY ${keyTag} is a ${bits}-bit RSA key; use at least 2048 bits or an ECDSA/EdDSA algorithm` }]
  }
  return []
}

export function findingsOf(result: ValidationResult): Finding[] {
  const findings: Finding[] = []
  const now = Math.floor(result.validatedAt / 1000)
  for (const link of uniqueLinks(result.links)) {
    const zone = link.zone.text
    for (const ds of link.ds) {
      if (ds.data.digestType === 1) {
        findings.push({ severity: 'warning', code: 'ds_digest_sha1', zone, message: `the DS for key ${ds.data.keyTag} uses SHA-1 (digest type 1); publish SHA-256 (RFC 8624 §3.3)` })
      }
      if (!algorithmSupported(ds.data.algorithm)) {
        findings.push({ severity: 'info', code: 'unsupported_algorithm', zone, message: `the DS for key ${ds.data.keyTag} names ${algorithmName(ds.data.algorithm)} (${ds.data.algorithm}), which this validator does not implement` })
      }
    }
    for (const key of link.dnskeys) findings.push(...keyFindings(zone, key))
    if (link.nsec3Iterations !== null && link.nsec3Iterations > 0) {
      findings.push({ severity: 'info', code: 'nsec3_iterations', zone, message: `NSEC3 uses ${link.nsec3Iterations} extra iterations; RFC 9276 recommends 0` })
    }
  }
  for (const { zone, check } of allSignatures(result)) {
    if (check.status !== 'valid') continue
    const times = rrsigTimes(check.rrsig, result.validatedAt)
    const left = times.expiresAt - now
    if (left < EXPIRY_WARNING_SECONDS) {
      const days = Math.max(0, Math.floor(left / 86_400))
      findings.push({
        severity: 'warning',
        code: 'signature_expiring',
        zone,
        message: `the RRSIG over ${check.rrsig.name} ${check.rrsig.data.typeCovered} (key ${check.rrsig.data.keyTag}) expires in ${days} day${days === 1 ? '' : 's'}, at ${isoOf(times.expiresAt)}`,
      })
    }
  }
  const seen = new Set<string>()
  return findings.filter((f) => {
    const key = `${f.code}|${f.zone}|${f.message}`
    return !seen.has(key) && seen.add(key)
  })
}
