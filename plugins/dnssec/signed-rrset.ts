// An RRset checked with a trusted zone's keys, noting how long the verdict may be
// reused: no longer than the records' TTL nor past the signature's expiry.

import type { DnskeyRecord, DnsRecord, RrsigRecord } from '../../runtime/net/dns/dns-records.ts'
import type { ValidationContext } from './chain-types.ts'
import type { Name } from './names.ts'
import { checkRRset, type RRsetCheck } from './rrsig-check.ts'
import { rrsigTimes } from './rrsig-times.ts'

export function checkSigned(
  ctx: ValidationContext,
  signer: Name,
  keys: readonly DnskeyRecord[],
  owner: Name,
  type: string,
  rrset: readonly DnsRecord[],
  rrsigs: readonly RrsigRecord[],
  trusted?: readonly DnskeyRecord[],
): RRsetCheck {
  const check = checkRRset({ owner, type, rrset, rrsigs, signer, keys, now: ctx.now, ...(trusted ? { trusted } : {}) })
  for (const record of rrset) ctx.noteTtl(record.ttl)
  if (check.valid) ctx.noteTtl(rrsigTimes(check.valid.rrsig, ctx.now * 1000).expiresAt - ctx.now)
  return check
}
