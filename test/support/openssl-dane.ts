import { spawn } from 'node:child_process'

// OpenSSL's own DANE check (RFC 6698/7671 in libssl) as a command, the oracle for
// whether a TLSA record authenticates what a host serves: `openssl s_client
// -dane_tlsa_domain <name> -dane_tlsa_rrdata "<usage> <selector> <mtype> <hex>"`,
// over STARTTLS for SMTP. The handshake fails (-verify_return_error) unless the
// record matches; PKIX usages verify against -CAfile. OpenSSL applies no SMTP rule:
// usages 0 and 1 count for it (RFC 7672 §3.1.3 makes them unusable for SMTP).
// Asynchronous: the servers it talks to live in the test's own process.

export interface OpensslDane {
  verified: boolean
  /** Its verification lines, for messages. */
  output: string
}

export async function opensslDane(o: { address: string; port: number; name: string; rrdata: string; smtp: boolean; caFile?: string }): Promise<OpensslDane> {
  const args = [
    's_client',
    '-connect',
    `${o.address}:${o.port}`,
    '-servername',
    o.name,
    '-dane_tlsa_domain',
    o.name,
    '-dane_tlsa_rrdata',
    o.rrdata,
    '-verify_return_error',
    '-brief',
    ...(o.smtp ? ['-starttls', 'smtp'] : []),
    ...(o.caFile ? ['-CAfile', o.caFile] : ['-no-CAfile', '-no-CApath', '-no-CAstore']),
  ]
  const child = spawn('openssl', args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: 10_000 })
  let output = ''
  child.stdout.on('data', (b: Buffer) => (output += b.toString()))
  child.stderr.on('data', (b: Buffer) => (output += b.toString()))
  child.stdin.end()
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve))
  return { verified: status === 0 && /Verification: OK/.test(output), output: output.split('\n').filter((l) => /verif|DANE|error/i.test(l)).join('\n') }
}
