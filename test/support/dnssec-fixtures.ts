// The signed test tree of test/fixtures/dnssec (made by scripts/gen-dnssec-fixtures.sh
// with BIND's signer), the verdict each test domain must get, and a loopback DNS
// server that answers for all of it the way a recursive resolver would: every name
// from the deepest zone that holds it, DS from the parent side of a cut.

import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../../runtime/app.ts'
import type { TestDnsServer } from './dns-server.ts'
import { startDnsServer } from './dns-server.ts'

export const DNSSEC_FIXTURES = join(ROOT, 'test', 'fixtures', 'dnssec')
/** The test root's KSK as a DS record (INFRALENS_TRUST_ANCHORS format). */
export const ROOT_ANCHOR_DS = join(DNSSEC_FIXTURES, 'root-anchor.ds')
export const ROOT_ANCHOR_DNSKEY = join(DNSSEC_FIXTURES, 'root-anchor.dnskey')
/** The same anchor as a named.conf trust-anchors block, for delv -a. */
export const ROOT_ANCHOR_CONF = join(DNSSEC_FIXTURES, 'root-anchor.conf')

/** The zone files of the test tree (the root, test., its children), by origin. */
export function treeZones(): Record<string, string> {
  const zones: Record<string, string> = {}
  for (const file of readdirSync(DNSSEC_FIXTURES).sort()) {
    if (!file.endsWith('.zone') || file.startsWith('example.')) continue
    zones[file === 'root.zone' ? '.' : file.replace(/\.zone$/, '')] = join(DNSSEC_FIXTURES, file)
  }
  return zones
}

export function zoneText(path: string): string {
  return readFileSync(path, 'utf8')
}

export interface ExpectedVerdict {
  domain: string
  status: 'secure' | 'insecure' | 'bogus' | 'indeterminate'
  reason?: string
  /** insecure_at / bogus_at */
  at?: string
  answer?: 'answer' | 'nodata' | 'nxdomain'
}

/** Every test domain and the verdict RFC 4035 gives it (BIND's delv agrees, see test/e2e/dnssec-interop.test.ts). */
export const EXPECTED: readonly ExpectedVerdict[] = [
  // one secure zone per algorithm
  { domain: 'www.rsasha256.test', status: 'secure', answer: 'answer' },
  { domain: 'www.rsasha512.test', status: 'secure', answer: 'answer' },
  { domain: 'www.ecdsap256.test', status: 'secure', answer: 'answer' },
  { domain: 'www.ecdsap384.test', status: 'secure', answer: 'answer' },
  { domain: 'www.ed25519.test', status: 'secure', answer: 'answer' },
  { domain: 'www.ed448.test', status: 'secure', answer: 'answer' },
  { domain: 'rsasha256.test', status: 'secure', answer: 'answer' },
  // authenticated denial, NSEC
  { domain: 'does-not-exist.test', status: 'secure', answer: 'nxdomain' },
  { domain: 'nope.ecdsap256.test', status: 'secure', answer: 'nxdomain' },
  { domain: 'txt-only.ecdsap256.test', status: 'secure', answer: 'nodata' },
  { domain: 'ent.ecdsap256.test', status: 'secure', answer: 'nodata' },
  { domain: 'anything.wild.ed25519.test', status: 'secure', answer: 'answer' },
  // authenticated denial, NSEC3 and NSEC3 opt-out
  { domain: 'www.nsec3.test', status: 'secure', answer: 'answer' },
  { domain: 'does-not-exist.nsec3.test', status: 'secure', answer: 'nxdomain' },
  { domain: 'txt-only.nsec3.test', status: 'secure', answer: 'nodata' },
  { domain: 'ent.nsec3.test', status: 'secure', answer: 'nodata' },
  { domain: 'anything.wild.nsec3.test', status: 'secure', answer: 'answer' },
  { domain: 'www.optout.test', status: 'secure', answer: 'answer' },
  { domain: 'txt-only.optout.test', status: 'secure', answer: 'nodata' },
  { domain: 'www.signed.optout.test', status: 'secure', answer: 'answer' },
  // RFC 5155 §9.2: a proof resting on an opt-out span is not secure (BIND differs, see the interop test)
  { domain: 'does-not-exist.optout.test', status: 'insecure', reason: 'opt_out', at: 'optout.test' },
  // insecure delegations
  { domain: 'www.unsigned.test', status: 'insecure', reason: 'unsigned_delegation', at: 'unsigned.test', answer: 'answer' },
  { domain: 'www.unsigned.nsec3.test', status: 'insecure', reason: 'unsigned_delegation', at: 'unsigned.nsec3.test', answer: 'answer' },
  { domain: 'www.unsigned.optout.test', status: 'insecure', reason: 'opt_out', at: 'optout.test', answer: 'answer' },
  { domain: 'www.unsupported-alg.test', status: 'insecure', reason: 'unsupported_algorithm', at: 'unsupported-alg.test', answer: 'answer' },
  { domain: 'www.unsupported-digest.test', status: 'insecure', reason: 'unsupported_digest', at: 'unsupported-digest.test', answer: 'answer' },
  // bogus
  { domain: 'www.bad-sig.test', status: 'bogus', reason: 'bad_signature', at: 'bad-sig.test' },
  { domain: 'www.expired.test', status: 'bogus', reason: 'expired', at: 'expired.test' },
  { domain: 'www.future.test', status: 'bogus', reason: 'not_yet_valid', at: 'future.test' },
  { domain: 'www.wrong-ds.test', status: 'bogus', reason: 'ds_dnskey_mismatch', at: 'wrong-ds.test' },
  { domain: 'www.no-dnskey.test', status: 'bogus', reason: 'dnskey_missing', at: 'no-dnskey.test' },
  { domain: 'www.no-rrsig.test', status: 'bogus', reason: 'missing_rrsig', at: 'no-rrsig.test' },
  // CNAMEs: in-zone, across zones, into an insecure and into a bogus zone
  { domain: 'alias.rsasha256.test', status: 'secure', answer: 'answer' },
  { domain: 'cross.rsasha256.test', status: 'secure', answer: 'answer' },
  { domain: 'to-insecure.ecdsap256.test', status: 'insecure', reason: 'unsigned_delegation', at: 'unsigned.test', answer: 'answer' },
  { domain: 'to-bogus.ecdsap256.test', status: 'bogus', reason: 'bad_signature', at: 'bad-sig.test' },
]

export interface SignedTree {
  server: TestDnsServer
  /** App env: the loopback server as the resolver, the test root's anchor. */
  env: Record<string, string>
  close(): Promise<void>
}

export async function startSignedTree(host = '127.0.0.2'): Promise<SignedTree> {
  const server = await startDnsServer({ host, zones: Object.values(treeZones()) })
  return {
    server,
    env: {
      INFRALENS_DNS_RESOLVERS: `${server.host}:${server.port}`,
      INFRALENS_TRUST_ANCHORS: ROOT_ANCHOR_DS,
      INFRALENS_DNS_TIMEOUT_MS: '1000',
      INFRALENS_ALLOW_PRIVATE_TARGETS: 'true',
    },
    close: () => server.close(),
  }
}
