// The chain of trust from the deepest trust anchor above a name down to the zone that
// holds it (RFC 4035 §5.1-5.2). Zone cuts are found the way a stub must find them:
// asking for DS at every name between the anchor and the target. A signed DS RRset
// means a secure delegation (then the child's DNSKEY RRset must hold a key a DS
// digest matches and be signed by it); a signed denial says there is no DS there —
// at a delegation (NS without SOA in the NSEC/NSEC3 bitmap, or an opt-out span) the
// chain ends insecure, anywhere else the name is just inside the current zone
// (no-ds-proof.ts reads those denials).

import type { DnsAnswer, DnskeyData, DnskeyRecord, DsRecord } from '../../runtime/net/dns/dns-records.ts'
import { algorithmName, algorithmSupported, digestName, digestSupported } from './algorithms.ts'
import { failedRcode, newLink, rrsetAt, rrsigsAt, type TrustedZone, type ValidationContext, type ZoneLink } from './chain-types.ts'
import { dsMatchesKey } from './ds-digest.ts'
import { isAtOrBelow, labelCount, namesBetween, type Name } from './names.ts'
import { proveNoDs } from './no-ds-proof.ts'
import { checkSigned } from './signed-rrset.ts'
import { bogus, indeterminate, insecure, SECURE, type Outcome } from './verdict.ts'

export interface WalkResult {
  /** The deepest zone whose keys are trusted; null when not even the anchor's are. */
  zone: TrustedZone | null
  /** secure: `zone` holds the name (or shows it does not exist); otherwise why the walk stopped. */
  outcome: Outcome
}

type Step =
  | { kind: 'delegation'; ds: DsRecord[]; link: ZoneLink }
  | { kind: 'inside' }
  | { kind: 'no_name' }
  | { kind: 'stop'; outcome: Outcome }

const stop = (outcome: Outcome): Step => ({ kind: 'stop', outcome })

/** Names asked for ahead of the walk; a long name (up to 127 labels) asks for the rest as it goes. */
const PREFETCH_NAMES = 12

function sameKey(a: DnskeyData, b: DnskeyData): boolean {
  return a.flags === b.flags && a.protocol === b.protocol && a.algorithm === b.algorithm && Buffer.from(a.key, 'base64').equals(Buffer.from(b.key, 'base64'))
}

function usableKey(key: DnskeyRecord): boolean {
  return key.data.zoneKey && !key.data.revoked
}

/** RFC 4035 §5.2 / RFC 6840 §5.2: only DS of implemented algorithms and digests count; RFC 4509 §3: SHA-1 only when nothing stronger is there. */
function usableDs(ds: readonly DsRecord[]): DsRecord[] {
  const usable = ds.filter((d) => algorithmSupported(d.data.algorithm) && digestSupported(d.data.digestType))
  const strong = usable.filter((d) => d.data.digestType !== 1)
  return strong.length > 0 ? strong : usable
}

function resolverFailure(answer: DnsAnswer, name: Name, type: string): Outcome {
  return indeterminate(name.text, 'resolver_failure', `the resolver answered ${answer.rcode} for ${name.text} ${type}, so the chain cannot be checked`)
}

export class ChainWalker {
  constructor(private readonly ctx: ValidationContext) {}

  async walk(target: Name): Promise<WalkResult> {
    const ctx = this.ctx
    const anchorOwner = ctx.anchors
      .map((a) => a.owner)
      .filter((owner) => isAtOrBelow(target, owner))
      .sort((a, b) => labelCount(b) - labelCount(a))[0]
    if (!anchorOwner) return { zone: null, outcome: indeterminate(null, 'no_trust_anchor', `no trust anchor is configured for ${target.text} or any name above it`) }
    const below = namesBetween(anchorOwner, target)
    // Every question the walk may ask goes out now, in parallel; the checks below then
    // consume the answers in order. A DS answer triggers the child's DNSKEY question.
    void ctx.fetch(anchorOwner, 'DNSKEY').catch(() => {})
    for (const name of below.slice(0, PREFETCH_NAMES)) {
      ctx.fetch(name, 'DS').then(
        (answer) => {
          if (rrsetAt(answer.answers, name, 'DS').length > 0) void ctx.fetch(name, 'DNSKEY').catch(() => {})
        },
        () => {},
      )
    }

    const anchored = await this.enterAnchor(anchorOwner)
    if ('status' in anchored) return { zone: null, outcome: anchored }
    let zone = anchored
    for (const name of below) {
      const step = await this.delegation(zone, name)
      if (step.kind === 'inside') continue
      if (step.kind === 'no_name') break
      if (step.kind === 'stop') return { zone, outcome: step.outcome }
      const child = await this.enterChild(name, step.ds, step.link)
      if ('status' in child) return { zone, outcome: child }
      zone = child
    }
    return { zone, outcome: SECURE }
  }

  /** The anchor's zone: its DNSKEY RRset must hold an anchored key and be signed by one. */
  private async enterAnchor(owner: Name): Promise<TrustedZone | Outcome> {
    const ctx = this.ctx
    const link = newLink(owner, 'trust_anchor')
    ctx.links.push(link)
    const anchors = ctx.anchors.filter((a) => a.owner.wire.equals(owner.wire))
    const usable = anchors.filter((a) => (a.type === 'DS' ? algorithmSupported(a.ds.algorithm) && digestSupported(a.ds.digestType) : algorithmSupported(a.dnskey.algorithm)))
    if (usable.length === 0) {
      link.message = `every trust anchor for ${owner.text} uses an algorithm or digest this validator does not implement`
      return indeterminate(owner.text, 'unsupported_trust_anchor', link.message)
    }
    const answer = await ctx.fetch(owner, 'DNSKEY')
    if (failedRcode(answer)) return this.fail(link, resolverFailure(answer, owner, 'DNSKEY'))
    const keys = rrsetAt(answer.answers, owner, 'DNSKEY')
    link.dnskeys = keys
    if (keys.length === 0) return this.fail(link, bogus(owner.text, 'dnskey_missing', `${owner.text} has no DNSKEY RRset, but it has a trust anchor`))
    link.entryKeys = keys.filter((k) => usableKey(k) && usable.some((a) => (a.type === 'DS' ? dsMatchesKey(owner, a.ds, k.data) : sameKey(a.dnskey, k.data))))
    if (link.entryKeys.length === 0) {
      const tags = usable.map((a) => (a.type === 'DS' ? a.ds.keyTag : a.dnskey.keyTag)).join(', ')
      return this.fail(link, bogus(owner.text, 'ds_dnskey_mismatch', `no DNSKEY of ${owner.text} matches its trust anchors (key tag ${tags})`))
    }
    return this.trustKeys(link, owner, keys, answer)
  }

  /** The child's DNSKEY RRset must hold a key one of the parent's DS records matches, and be signed by it. */
  private async enterChild(name: Name, ds: DsRecord[], link: ZoneLink): Promise<TrustedZone | Outcome> {
    const ctx = this.ctx
    const answer = await ctx.fetch(name, 'DNSKEY')
    if (failedRcode(answer)) return this.fail(link, resolverFailure(answer, name, 'DNSKEY'))
    const keys = rrsetAt(answer.answers, name, 'DNSKEY')
    link.dnskeys = keys
    if (keys.length === 0) return this.fail(link, bogus(name.text, 'dnskey_missing', `${name.text} has DS records in its parent but no DNSKEY RRset`))
    const usable = usableDs(ds)
    link.entryKeys = keys.filter((k) => usableKey(k) && usable.some((d) => dsMatchesKey(name, d.data, k.data)))
    if (link.entryKeys.length === 0) {
      const wanted = usable.map((d) => `${d.data.keyTag}/${algorithmName(d.data.algorithm)}/${digestName(d.data.digestType)}`).join(', ')
      return this.fail(link, bogus(name.text, 'ds_dnskey_mismatch', `no DNSKEY of ${name.text} matches a DS in its parent (${wanted})`))
    }
    return this.trustKeys(link, name, keys, answer)
  }

  private trustKeys(link: ZoneLink, owner: Name, keys: DnskeyRecord[], answer: DnsAnswer): TrustedZone | Outcome {
    const check = checkSigned(this.ctx, owner, keys.filter(usableKey), owner, 'DNSKEY', keys, rrsigsAt(answer.answers, owner, 'DNSKEY'), link.entryKeys)
    link.dnskeySignatures = check.checks
    if (!check.ok) {
      const entry = link.entryKeys.map((k) => k.data.keyTag).join(', ')
      // Signed only by other keys (a ZSK): the key the parent vouches for never signed the set.
      const message = check.failure === 'missing_rrsig' ? `the DNSKEY RRset of ${owner.text} is not signed by the key the DS or anchor points at (key tag ${entry})` : check.message
      return this.fail(link, bogus(owner.text, check.failure ?? 'missing_rrsig', message))
    }
    link.status = 'secure'
    link.message = `${owner.text}: DNSKEY RRset signed by key ${check.valid?.rrsig.data.keyTag ?? '?'}, which the ${link.trust === 'trust_anchor' ? 'trust anchor' : 'parent DS'} vouches for`
    return { name: owner, keys: keys.filter(usableKey), link }
  }

  private fail(link: ZoneLink, outcome: Outcome): Outcome {
    link.status = outcome.status
    link.message = 'message' in outcome ? outcome.message : ''
    return outcome
  }

  /** Is `name` a zone cut below `zone`, and if so, a secure one? */
  private async delegation(zone: TrustedZone, name: Name): Promise<Step> {
    const ctx = this.ctx
    const answer = await ctx.fetch(name, 'DS')
    if (failedRcode(answer)) return stop(resolverFailure(answer, name, 'DS'))
    const ds = rrsetAt(answer.answers, name, 'DS')
    if (ds.length > 0) {
      const link = newLink(name, 'ds')
      ctx.links.push(link)
      link.ds = ds
      const check = checkSigned(ctx, zone.name, zone.keys, name, 'DS', ds, rrsigsAt(answer.answers, name, 'DS'))
      link.dsSignatures = check.checks
      // The DS RRset is the parent's data: a bad signature over it is the parent's fault.
      if (!check.ok) return stop(this.fail(link, bogus(zone.name.text, check.failure ?? 'missing_rrsig', check.message)))
      if (usableDs(ds).length === 0) {
        const algorithmKnown = ds.some((d) => algorithmSupported(d.data.algorithm))
        const what = algorithmKnown
          ? `digest types ${[...new Set(ds.map((d) => digestName(d.data.digestType)))].join(', ')}`
          : `algorithms ${[...new Set(ds.map((d) => algorithmName(d.data.algorithm)))].join(', ')}`
        const message = `the DS records of ${name.text} only use ${what}, which this validator does not implement, so the zone counts as unsigned (RFC 6840 §5.2)`
        return stop(this.fail(link, insecure(name.text, algorithmKnown ? 'unsupported_digest' : 'unsupported_algorithm', message)))
      }
      return { kind: 'delegation', ds, link }
    }
    if (rrsetAt(answer.answers, name, 'CNAME').length > 0) return { kind: 'inside' }
    const proof = proveNoDs(ctx, zone, name, answer)
    if (proof.kind === 'inside' || proof.kind === 'no_name') return proof
    if (proof.kind === 'unsigned_cut') return this.insecureCut(proof.at, proof.denial, proof.outcome)
    return stop(proof.outcome)
  }

  private insecureCut(name: Name, denial: ZoneLink['denial'], outcome: Outcome): Step {
    const link = newLink(name, null)
    link.denial = denial
    this.ctx.links.push(link)
    return stop(this.fail(link, outcome))
  }
}
