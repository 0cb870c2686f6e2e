// The validator: for a name and type, walk the chain of trust, check the answer with
// the keys it ends at, and follow CNAMEs (each target gets its own chain; the verdict
// is the weakest link's). The clock is the service's (runtime/clock.ts), so tests
// judge fixed signatures at fixed instants.

import type { DnsAnswer, DnsRecord, DnsServerInfo } from '../../runtime/net/dns/dns-records.ts'
import type { DnsTypeMnemonic } from '../../runtime/net/dns/dns-types.ts'
import { checkAnswer, readAnswer, type AnswerCheck } from './answer-check.ts'
import type { ValidationContext, ZoneLink } from './chain-types.ts'
import { ChainWalker } from './chain-walk.ts'
import type { DnssecFetcher } from './dnssec-fetcher.ts'
import { labelCount, nameOf, parentOf, type Name } from './names.ts'
import type { SigCheck } from './rrsig-check.ts'
import type { TrustAnchors } from './trust-anchors.ts'
import { SECURE, worst, type Outcome } from './verdict.ts'

/** CNAMEs followed before giving up (a loop or a chain no resolver would chase). */
const MAX_CNAMES = 8

export interface CnameStep {
  owner: Name
  target: Name
  records: DnsRecord[]
  signatures: SigCheck[]
  outcome: Outcome
}

export interface ValidationResult {
  name: Name
  type: DnsTypeMnemonic
  outcome: Outcome
  /** Zones in the order they were checked (CNAME targets' chains after the name's). */
  links: ZoneLink[]
  /** The final answer: for the name, or for the end of its CNAME chain. */
  answer: AnswerCheck
  answerName: Name
  cnames: CnameStep[]
  /** Seconds the result may be reused: smallest TTL, earliest signature expiry. */
  ttl: number
  /** Milliseconds since the epoch, by the validator's clock. */
  validatedAt: number
  anchors: TrustAnchors
  resolver: DnsServerInfo | null
}

export interface ValidatorOptions {
  fetcher: DnssecFetcher
  anchors: TrustAnchors
  /** The service clock: milliseconds since the epoch (validity windows are judged against it). */
  now: () => number
}

export interface ValidateOptions {
  type?: DnsTypeMnemonic
  signal?: AbortSignal
  now?: () => number
}

export interface Validator {
  validate(name: string, options?: ValidateOptions): Promise<ValidationResult>
}

export function createValidator(options: ValidatorOptions): Validator {
  return {
    async validate(nameText, opts = {}) {
      const type = opts.type ?? 'A'
      const nowMs = (opts.now ?? options.now)()
      const asked = new Map<string, Promise<DnsAnswer>>()
      let resolver: DnsServerInfo | null = null
      let ttl = Number.POSITIVE_INFINITY
      const ctx: ValidationContext = {
        now: Math.floor(nowMs / 1000),
        anchors: options.anchors.anchors,
        links: [],
        fetch(name, qtype) {
          const key = `${name.text}/${qtype}`
          let pending = asked.get(key)
          if (!pending) {
            pending = options.fetcher.fetch(name, qtype, opts.signal).then((answer) => {
              resolver ??= answer.server
              return answer
            })
            asked.set(key, pending)
          }
          return pending
        },
        noteTtl(seconds) {
          ttl = Math.min(ttl, Math.max(0, Math.floor(seconds)))
        },
      }
      const walker = new ChainWalker(ctx)

      const start = nameOf(nameText)
      let name = start
      let outcome: Outcome = SECURE
      const cnames: CnameStep[] = []
      const seen = new Set<string>()
      let answer: AnswerCheck
      for (;;) {
        seen.add(name.text)
        const pendingAnswer = ctx.fetch(name, type)
        pendingAnswer.catch(() => {})
        // A DS RRset lives on the parent side of its zone cut, signed by the parent's
        // keys (RFC 4035 §2.4): the walk stops above the name, or it would enter the
        // child zone and judge the parent's data with the child's keys.
        const walk = await walker.walk(type === 'DS' && labelCount(name) > 0 ? parentOf(name) : name)
        const response = await pendingAnswer
        // The verdict is about this answer: it lasts no longer than the answer does.
        for (const record of [...response.answers, ...response.authorities]) ctx.noteTtl(record.ttl)
        answer = walk.zone && walk.outcome.status === 'secure' ? checkAnswer(ctx, walk.zone, response, name, type) : readAnswer(response, name, type, walk.outcome)
        outcome = worst(outcome, answer.outcome)
        if (answer.kind !== 'cname' || !answer.target || outcome.status === 'bogus' || outcome.status === 'indeterminate') break
        cnames.push({ owner: name, target: answer.target, records: answer.records, signatures: answer.signatures, outcome: answer.outcome })
        if (seen.has(answer.target.text) || cnames.length > MAX_CNAMES) break
        name = answer.target
      }
      return {
        name: start,
        type,
        outcome,
        links: ctx.links,
        answer,
        answerName: name,
        cnames,
        ttl: Number.isFinite(ttl) ? ttl : 60,
        validatedAt: nowMs,
        anchors: options.anchors,
        resolver,
      }
    },
  }
}
