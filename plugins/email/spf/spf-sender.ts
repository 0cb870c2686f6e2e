import { InputError } from '../../../runtime/errors.ts'
import { normalizeDomain } from '../../../runtime/params/domain.ts'
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
  /** %{t}: seconds since the epoch, from the service's clock. */
  now: number
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
      now: identity.now,
    },
    limits,
  )
}

/** The check_host() an endpoint runs: whose identity, and with which sender and HELO name. */
export interface SpfCheck {
  /** "helo": the HELO identity (§2.3); "mail_from": the MAIL FROM identity (§2.4), postmaster@<helo> when it is null. */
  identity: 'mail_from' | 'helo'
  ip: string
  /** The full sender check_host() gets (%{s}): "postmaster@<helo>" for the HELO identity and a null MAIL FROM. */
  sender: string
  helo: string
}

export interface SpfCheckParams {
  ip?: string | undefined
  /** MAIL FROM as given; '' or "<>" is the null reverse-path. */
  sender?: string | undefined
  helo?: string | undefined
}

/**
 * Turns ?ip=, ?sender= and ?helo= into the check a receiver would run, or a 400
 * that says what to change. The checked identity's domain must be the domain
 * asked about: the answer's tree is that domain's record, and an evaluation of
 * another domain's record beside it would be read as this one's.
 */
export function spfCheckRequest(domain: string, params: SpfCheckParams): SpfCheck | null {
  const { ip, sender, helo } = params
  if (ip === undefined) {
    const given = [sender !== undefined ? 'sender' : null, helo !== undefined ? 'helo' : null].filter((p): p is string => p !== null)
    if (given.length === 0) return null
    throw new InputError(
      `${given.join(' and ')} ${given.length > 1 ? 'are' : 'is'} only used to evaluate check_host(), which needs ip, the SMTP client's address: add ?ip= (e.g. ?ip=192.0.2.1&${given.map((p) => `${p}=...`).join('&')}).`,
      { param: 'ip' },
    )
  }
  const heloName = helo ?? domain
  // Without a sender, a HELO name means the HELO identity; with neither, the domain's postmaster is the sender.
  const identity = sender === undefined && helo !== undefined ? 'helo' : 'mail_from'
  const mailFrom = sender === undefined ? (identity === 'helo' ? '' : `postmaster@${domain}`) : sender === '<>' ? '' : sender
  const resolved = senderOf({ mailFrom, helo: heloName })
  const checked = normalizeDomain(resolved.domain)
  if (checked.ok && checked.name === domain) return { identity, ip, sender: resolved.sender, helo: heloName }

  const param = identity === 'helo' || mailFrom === '' ? 'helo' : 'sender'
  const value = param === 'helo' ? heloName : (sender ?? '')
  if (resolved.domain === '') throw new InputError(`The sender "${sender}" has no domain after the @: give a full address at ${domain}.`, { param, value })
  const what =
    identity === 'helo'
      ? `The HELO identity "${heloName}" is checked against the SPF record of ${heloName}`
      : mailFrom === ''
        ? `An empty sender (null reverse-path) is checked as postmaster@${heloName}, against the SPF record of ${heloName}`
        : `The sender "${sender}" is checked against the SPF record of ${resolved.domain}`
  if (!checked.ok) throw new InputError(`${what}, which is not a domain name (${checked.reason}): check_host() would answer "none".`, { param, value })
  const fix =
    identity === 'helo'
      ? `ask /api/email/spf/${checked.name}?ip=${ip}&helo=${heloName}, or add sender=<address at ${domain}> to check a MAIL FROM at ${domain}`
      : mailFrom === ''
        ? `ask /api/email/spf/${checked.name}?ip=${ip}&sender=&helo=${heloName}, or give helo=${domain}`
        : `ask /api/email/spf/${checked.name} with the same parameters, or give a sender at ${domain}`
  throw new InputError(`${what}, not ${domain}: ${fix}.`, { param, value })
}
