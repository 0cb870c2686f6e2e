// The records a denial proof relies on must themselves be signed by the zone that
// denies (RFC 4035 §5.4): each one picked by a proof is checked here, and the first
// that fails makes the proof — and the answer — bogus for that signature's reason.

import type { DnsRecord, Nsec3Record, NsecRecord } from '../../runtime/net/dns/dns-records.ts'
import { rrsetAt, rrsigsAt, type DenialReport, type TrustedZone, type ValidationContext } from './chain-types.ts'
import type { Name } from './names.ts'
import type { SigCheck } from './rrsig-check.ts'
import { checkSigned } from './signed-rrset.ts'
import type { BogusReason } from './verdict.ts'

interface ProofRecord {
  owner: Name
  record: NsecRecord | Nsec3Record
}

export type DenialCheck = { ok: true; report: DenialReport } | { ok: false; report: DenialReport; reason: BogusReason; message: string }

export function checkDenial(
  ctx: ValidationContext,
  zone: TrustedZone,
  section: readonly DnsRecord[],
  kind: 'nsec' | 'nsec3',
  proves: string,
  optOut: boolean,
  picked: readonly ProofRecord[],
): DenialCheck {
  const type = kind === 'nsec' ? 'NSEC' : 'NSEC3'
  const signatures: SigCheck[] = []
  const report: DenialReport = { kind, proves, optOut, records: picked.map((p) => p.record), signatures }
  for (const { owner } of picked) {
    const check = checkSigned(ctx, zone.name, zone.keys, owner, type, rrsetAt(section, owner, type), rrsigsAt(section, owner, type))
    signatures.push(...check.checks)
    if (!check.ok) return { ok: false, report, reason: check.failure ?? 'missing_rrsig', message: check.message }
  }
  return { ok: true, report }
}
