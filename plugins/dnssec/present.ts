// The validation as API data: flat, snake_case, plain JSON (no Buffers), every
// signature with what checking it found.

import type { DnsRecord, Nsec3Record, NsecRecord } from '../../runtime/net/dns/dns-records.ts'
import { presentRecord } from '../dns/surface.ts'
import { algorithmName, algorithmSupported, digestName, digestSupported } from './algorithms.ts'
import type { DenialReport, ZoneLink } from './chain-types.ts'
import type { DnssecData } from '../../registry/dns/schemas/dnssec-data.ts'
import { dsMatchesKey } from './ds-digest.ts'
import { findingsOf, uniqueLinks } from './findings.ts'
import { keySizeOf } from './public-key.ts'
import type { SigCheck } from './rrsig-check.ts'
import { isoOf, rrsigTimes } from './rrsig-times.ts'
import type { ValidationResult } from './validator.ts'

type Rrsig = DnssecData['answer']['rrsigs'][number]

function presentSig(check: SigCheck, nowMs: number): Rrsig {
  const d = check.rrsig.data
  const times = rrsigTimes(check.rrsig, nowMs)
  return {
    type_covered: d.typeCovered,
    signer: d.signerName || '.',
    key_tag: d.keyTag,
    algorithm: d.algorithm,
    algorithm_name: algorithmName(d.algorithm),
    labels: d.labels,
    inception: isoOf(times.inceptionAt),
    expiration: isoOf(times.expiresAt),
    status: check.status,
  }
}

function presentDenial(denial: DenialReport | null, nowMs: number): DnssecData['answer']['denial'] {
  if (!denial) return null
  return {
    type: denial.kind,
    proves: denial.proves,
    opt_out: denial.optOut,
    records: denial.records.map((r: NsecRecord | Nsec3Record) => ({
      name: r.name,
      type: r.type,
      next: r.type === 'NSEC' ? r.data.nextDomain : r.data.nextHashedOwner,
      types: r.data.types,
    })),
    rrsigs: denial.signatures.map((s) => presentSig(s, nowMs)),
  }
}

function presentLink(link: ZoneLink, nowMs: number): DnssecData['chain'][number] {
  const entry = new Set(link.entryKeys)
  return {
    zone: link.zone.text,
    status: link.status,
    trust: link.trust,
    message: link.message,
    ds: link.ds.map((ds) => ({
      key_tag: ds.data.keyTag,
      algorithm: ds.data.algorithm,
      algorithm_name: algorithmName(ds.data.algorithm),
      digest_type: ds.data.digestType,
      digest_type_name: digestName(ds.data.digestType),
      digest: ds.data.digest,
      supported: algorithmSupported(ds.data.algorithm) && digestSupported(ds.data.digestType),
      matches_key: link.dnskeys.some((k) => dsMatchesKey(link.zone, ds.data, k.data)),
    })),
    dnskeys: link.dnskeys.map((k) => ({
      key_tag: k.data.keyTag,
      algorithm: k.data.algorithm,
      algorithm_name: algorithmName(k.data.algorithm),
      flags: k.data.flags,
      role: k.data.secureEntryPoint ? 'ksk' : 'zsk',
      key_size: keySizeOf(k.data.algorithm, k.data.key),
      revoked: k.data.revoked,
      supported: algorithmSupported(k.data.algorithm),
      entry_point: entry.has(k),
    })),
    rrsigs: [...link.dsSignatures, ...link.dnskeySignatures].map((s) => presentSig(s, nowMs)),
    denial: presentDenial(link.denial, nowMs),
  }
}

export function presentValidation(result: ValidationResult, domain: string): DnssecData {
  const { outcome, answer } = result
  const nowMs = result.validatedAt
  const ttlOf = (records: readonly DnsRecord[]) => Math.min(...records.map((r) => r.ttl))
  return {
    domain,
    type: result.type,
    status: outcome.status,
    reason: outcome.status === 'secure' ? null : outcome.reason,
    message: outcome.status === 'secure' ? `the answer for ${result.answerName.text} ${result.type} is validated from the trust anchor down` : outcome.message,
    insecure_at: outcome.status === 'insecure' ? outcome.at : null,
    opt_out_name: outcome.status === 'insecure' ? outcome.optOutName : null,
    bogus_at: outcome.status === 'bogus' ? outcome.at : null,
    answer: {
      name: result.answerName.text,
      status: answer.kind,
      records: answer.records.map(presentRecord),
      cname_chain: result.cnames.map((c) => ({ name: c.owner.text, target: c.target.text, ttl: ttlOf(c.records), status: c.outcome.status })),
      wildcard: answer.wildcard?.text ?? null,
      denial: presentDenial(answer.denial, nowMs),
      rrsigs: answer.signatures.map((s) => presentSig(s, nowMs)),
    },
    chain: uniqueLinks(result.links).map((l) => presentLink(l, nowMs)),
    findings: findingsOf(result),
    trust_anchors: {
      source: result.anchors.source,
      anchors: result.anchors.anchors.map((a) =>
        a.type === 'DS'
          ? { zone: a.owner.text, type: 'DS' as const, key_tag: a.ds.keyTag, algorithm: a.ds.algorithm }
          : { zone: a.owner.text, type: 'DNSKEY' as const, key_tag: a.dnskey.keyTag, algorithm: a.dnskey.algorithm },
      ),
    },
    validated_at: new Date(nowMs).toISOString(),
    resolver: result.resolver ? { name: result.resolver.name, address: result.resolver.host, port: result.resolver.port } : null,
  }
}
