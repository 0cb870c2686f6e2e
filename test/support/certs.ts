import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// Certificates for the loopback internet, made at test time with the openssl CLI
// (node:crypto can read X.509 but not write it): a throw-away CA, leaf
// certificates it signs for given names, and self-signed ones. The app trusts the
// CA through INFRALENS_EXTRA_CA_FILE = caFile, as an operator would a private root.

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

function openssl(args: string[], cwd: string): void {
  try {
    execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (error) {
    const e = error as { code?: string; stderr?: Buffer }
    if (e.code === 'ENOENT') throw new Error('test/support/certs.ts needs the openssl CLI (apt-get install openssl)')
    throw new Error(`openssl ${args[0]} failed: ${e.stderr?.toString() ?? String(error)}`)
  }
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']

export function createTestCa(name = 'infralens test CA'): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'infralens-ca-'))
  openssl(['req', '-x509', ...EC, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '400', '-subj', `/CN=${name}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir)
  let serial = 0
  const san = (names: string[]) => `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`
  return {
    caFile: join(dir, 'ca.pem'),
    caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    issue(names) {
      const id = `leaf${++serial}`
      openssl(['req', ...EC, '-keyout', `${id}.key`, '-out', `${id}.csr`, '-subj', `/CN=${names[0]}`], dir)
      writeFileSync(join(dir, `${id}.ext`), `${san(names)}\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n`)
      openssl(['x509', '-req', '-in', `${id}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', String(1000 + serial), '-days', '90', '-extfile', `${id}.ext`, '-out', `${id}.pem`], dir)
      return { key: readFileSync(join(dir, `${id}.key`), 'utf8'), cert: readFileSync(join(dir, `${id}.pem`), 'utf8') }
    },
    selfSigned(names) {
      const id = `self${++serial}`
      openssl(['req', '-x509', ...EC, '-keyout', `${id}.key`, '-out', `${id}.pem`, '-days', '90', '-subj', `/CN=${names[0]}`, '-addext', san(names)], dir)
      return { key: readFileSync(join(dir, `${id}.key`), 'utf8'), cert: readFileSync(join(dir, `${id}.pem`), 'utf8') }
    },
    close() {
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
