import type { ProtocolScan } from '../cipher-scan.ts'

// What every active check answers, and what the checks need from the cipher
// scan: the protocol versions and the suites accepted on each, so a check's
// hello is one the server is known to answer.

export interface CheckResult {
  /** What was found, in the check's own words: supported, vulnerable, refused, enabled, ... */
  result: string
  /** true: nothing to fix; false: a finding says what; null: not applicable or not decidable. */
  ok: boolean | null
  /** What the server did on the wire, to check the verdict by. */
  evidence: string
}

export const notApplicable = (result: string, evidence: string): CheckResult => ({ result, ok: null, evidence })

export interface Legacy {
  version: number
  name: string
  suites: number[]
}

/** The highest protocol below TLS 1.3 the server accepts, with its suites: where TLS <= 1.2 checks ask. */
export function highestLegacy(protocols: readonly ProtocolScan[]): Legacy | null {
  const p = [...protocols].reverse().find((x) => x.supported && x.version < 0x0304 && x.suites.length > 0)
  return p ? { version: p.version, name: p.protocol, suites: p.suites } : null
}

/** TLS 1.0-1.2 only: node:tls (OpenSSL 3) cannot speak SSLv3. */
export function nodeVersion(version: number): 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | null {
  return version === 0x0301 ? 'TLSv1' : version === 0x0302 ? 'TLSv1.1' : version === 0x0303 ? 'TLSv1.2' : null
}

export const hex = (n: number, width = 4) => `0x${n.toString(16).padStart(width, '0')}`
