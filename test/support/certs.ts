import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { issue, keyPair } from './tls-certs.ts'
import type { WorldTime } from './world-time.ts'
import { hostTime } from './world-time.ts'

// Certificates for the loopback internet's web, HTTPS and SMTP fakes: a throw-away
// CA, leaf certificates it signs for given names, and self-signed ones. The app
// trusts the CA through INFRALENS_EXTRA_CA_FILE = caFile, as an operator would a
// private root. Made with tls-certs.ts (in process, dated by the world's time:
// world-time.ts) rather than the openssl CLI, which cannot backdate or date ahead.

export interface KeyAndCert {
  key: string
  cert: string
}

export interface TestCa {
  /** PEM file of the CA certificate. */
  caFile: string
  caPem: string
  /** A certificate for `names` (the first is the CN) signed by the CA. */
  issue(names: string[]): KeyAndCert
  /** A certificate for `names` signed by nobody (untrusted). */
  selfSigned(names: string[]): KeyAndCert
  close(): void
}

export function createTestCa(name = 'infralens test CA', time: WorldTime = hostTime()): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'infralens-ca-'))
  const ca = issue({ subject: { cn: name }, ca: true, key: keyPair({ type: 'ec', curve: 'P-256' }, true), ...time.ca })
  const caFile = join(dir, 'ca.pem')
  writeFileSync(caFile, ca.pem)
  const leaf = (names: string[], signed: boolean): KeyAndCert => {
    const key = keyPair({ type: 'ec', curve: 'P-256' }, true)
    const cert = issue({ subject: { cn: names[0]! }, dns: names, key, ...(signed ? { issuer: ca } : {}), ...time.leaf })
    return { key: key.pem, cert: cert.pem }
  }
  return {
    caFile,
    caPem: ca.pem,
    issue: (names) => leaf(names, true),
    selfSigned: (names) => leaf(names, false),
    close() {
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
