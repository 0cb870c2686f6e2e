import type { EmailDns } from '../email-dns.ts'
import type { SpfEvaluation, SpfLimits } from './spf-evaluate.ts'
import { checkHost, DEFAULT_LIMITS } from './spf-evaluate.ts'

// Which identity is checked (RFC 7208 §2.3, §2.4, §4.3): the MAIL FROM domain, or
// for a null reverse-path "postmaster@<HELO>"; a missing local part becomes
// "postmaster". This is what a receiving MTA does with an SMTP transaction.

export interface SmtpIdentity {
  ip: string
  /** MAIL FROM; '' for the null reverse-path. */
  mailFrom: string
  helo: string
  receiver?: string
  now?: number
}

export function senderOf(identity: Pick<SmtpIdentity, 'mailFrom' | 'helo'>): { sender: string; domain: string } {
  if (identity.mailFrom === '') return { sender: `postmaster@${identity.helo}`, domain: identity.helo }
  const at = identity.mailFrom.lastIndexOf('@')
  if (at < 0) return { sender: `postmaster@${identity.mailFrom}`, domain: identity.mailFrom }
  const local = identity.mailFrom.slice(0, at) || 'postmaster'
  const domain = identity.mailFrom.slice(at + 1)
  return { sender: `${local}@${domain}`, domain }
}

export async function checkSmtpIdentity(dns: EmailDns, identity: SmtpIdentity, limits: SpfLimits = DEFAULT_LIMITS): Promise<SpfEvaluation> {
  const { sender, domain } = senderOf(identity)
  return checkHost(
    dns,
    domain,
    {
      ip: identity.ip,
      sender,
      helo: identity.helo,
      ...(identity.receiver !== undefined ? { receiver: identity.receiver } : {}),
      ...(identity.now !== undefined ? { now: identity.now } : {}),
    },
    limits,
  )
}
