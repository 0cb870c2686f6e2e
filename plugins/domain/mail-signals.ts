import type { Outcome } from './dns-signals.ts'
import { dataOf } from './dns-signals.ts'

// Presence checks only (the email endpoints parse and grade the records): MX or
// null MX (RFC 7505), SPF TXT records at the domain (RFC 7208 §4.5: more than one
// is a permerror), a DMARC record at _dmarc (RFC 7489 §6.6.3) and its p= policy.

export interface MailSignals {
  mx: Array<{ preference: number; exchange: string }> | null
  null_mx: boolean | null
  spf: { present: boolean; records: string[] } | null
  dmarc: { present: boolean; record: string | null; policy: string | null } | null
}

const isRoot = (name: string) => name === '' || name === '.'

export function mailSignals(mx: Outcome, txt: Outcome, dmarc: Outcome): MailSignals {
  const mxRecords = dataOf<{ preference: number; exchange: string }>(mx)
  const txtRecords = dataOf<{ text: string }>(txt)
  const dmarcRecords = dataOf<{ text: string }>(dmarc)
  const spf = txtRecords?.map((r) => r.text).filter((t) => /^v=spf1(\s|$)/i.test(t)) ?? null
  const dmarcRecord = dmarcRecords?.map((r) => r.text).find((t) => /^v=DMARC1\s*(;|$)/i.test(t)) ?? null
  const policy = dmarcRecord ? (/(?:^|;)\s*p\s*=\s*([a-z]+)/i.exec(dmarcRecord)?.[1]?.toLowerCase() ?? null) : null
  return {
    mx: mxRecords?.map((r) => ({ preference: r.preference, exchange: isRoot(r.exchange) ? '.' : r.exchange.toLowerCase() })) ?? null,
    null_mx: mxRecords === null ? null : mxRecords.length === 1 && isRoot(mxRecords[0]!.exchange),
    spf: spf === null ? null : { present: spf.length > 0, records: spf },
    // A missing _dmarc name is NXDOMAIN: an answer, not a failure.
    dmarc: dmarcRecords === null ? null : { present: dmarcRecord !== null, record: dmarcRecord, policy },
  }
}
