import type { Checks } from './checks/run-checks.ts'
import type { Finding, Severity } from './findings.ts'
import type { GroupScan } from './group-scan.ts'
import { NAMED_GROUPS, groupBits } from './named-groups.ts'

const PQ_GROUPS = NAMED_GROUPS.filter((g) => g.post_quantum)
import type { SigalgScan } from './sigalg-scan.ts'

// Findings of the active checks and the group and signature-scheme scans, each
// with the evidence seen. Caps follow SSL Labs' rating guide where it has a rule: Heartbleed, CCS injection, ROBOT and insecure
// client-initiated renegotiation F; no secure renegotiation C; TLS compression
// (CRIME) C; no TLS_FALLBACK_SCSV A- (so no A+ either). What is a risk but not
// a flaw of the protocol configuration (client-initiated renegotiation as a DoS
// lever, 0-RTT replay, no post-quantum group) is reported without a cap.

export interface CheckFacts {
  checks: Checks
  groups: GroupScan
  sigalgs: SigalgScan
  /** HTTP is spoken on the port (no STARTTLS): CRIME and client renegotiation matter more there. */
  http: boolean
}

export type FindingWithEvidence = Finding & { evidence: string }

export function checkFindings(f: CheckFacts): FindingWithEvidence[] {
  const out: FindingWithEvidence[] = []
  const add = (id: string, severity: Severity, message: string, fix: string, evidence: string, cap: Finding['grade_cap'] = null) =>
    out.push({ id, severity, message, fix, grade_cap: cap, evidence })
  const c = f.checks

  if (c.heartbleed.ok === false) add('heartbleed', 'critical', 'The server is vulnerable to Heartbleed (CVE-2014-0160): it answers heartbeats without checking their length, so a client can read up to 64 KB of its memory per request (keys, passwords, cookies).', 'Upgrade OpenSSL (1.0.1g or later; any supported version), then replace the private key and certificate and revoke the old one.', c.heartbleed.evidence, 'F')
  else if (c.heartbeat.result === 'offered') add('heartbeat_enabled', 'info', 'The server offers the TLS heartbeat extension (RFC 6520); nothing uses it over TLS, and it is where Heartbleed lived.', 'Build or configure the TLS library without heartbeats (OpenSSL 1.1.0 and later have none).', c.heartbeat.evidence)
  if (c.ccs_injection.ok === false) add('ccs_injection', 'critical', 'The server accepts an early ChangeCipherSpec (CVE-2014-0224): a man in the middle can make it use keys derived from an empty master secret and read or change the traffic.', 'Upgrade OpenSSL (0.9.8za, 1.0.0m, 1.0.1h or later; any supported version).', c.ccs_injection.evidence, 'F')
  if (c.robot.ok === false) {
    if (c.robot.result === 'weakly_vulnerable') add('robot_weak_oracle', 'medium', 'The server answers badly padded RSA key exchanges a little differently (a weak Bleichenbacher oracle, ROBOT): an attack would need very many connections.', 'Disable RSA key-transport suites (keep ECDHE), or update the TLS stack or load balancer.', c.robot.evidence, 'B')
    else add('robot', 'critical', 'The server is a Bleichenbacher oracle (ROBOT): it answers badly padded RSA key exchanges differently, so an attacker can decrypt recorded RSA key-exchange sessions or sign with the server’s key.', 'Disable RSA key-transport suites (keep ECDHE), and update the TLS stack or load balancer.', c.robot.evidence, 'F')
  }
  if (c.secure_renegotiation.ok === false) add('no_secure_renegotiation', 'high', 'The server does not implement secure renegotiation (RFC 5746): renegotiation can be used to splice an attacker’s request in front of a client’s (CVE-2009-3555).', 'Update the TLS library; every stack released since 2010 has RFC 5746.', c.secure_renegotiation.evidence, 'C')
  if (c.client_renegotiation.result === 'accepted_insecure') add('insecure_client_renegotiation', 'critical', 'The server accepts client-initiated renegotiation without RFC 5746: an attacker can inject a request in front of a client’s (CVE-2009-3555).', 'Update the TLS library and disable client-initiated renegotiation.', c.client_renegotiation.evidence, 'F')
  else if (c.client_renegotiation.ok === false) add('client_renegotiation', 'low', 'The server accepts client-initiated renegotiation: each one costs it a full handshake, a cheap way to load it (CVE-2011-1473).', 'Disable client-initiated renegotiation (OpenSSL 3 refuses it by default; nginx and Apache do too).', c.client_renegotiation.evidence)
  if (c.compression.ok === false) add('tls_compression', f.http ? 'high' : 'medium', `The server compresses TLS records (DEFLATE): secrets in compressed traffic can be recovered by an attacker who can add data to it (CRIME, CVE-2012-4929)${f.http ? '' : '; no attack is known outside HTTP, but nothing needs it'}.`, 'Disable TLS compression (OpenSSL: SSL_OP_NO_COMPRESSION; it is off by default since 1.1.0).', c.compression.evidence, 'C')
  if (c.fallback_scsv.ok === false) add('no_fallback_scsv', 'low', 'The server ignores TLS_FALLBACK_SCSV (RFC 7507): a client that retries with an older version after a failed handshake can be pushed down to it.', 'Update the TLS library (OpenSSL 1.0.1j and later honour it), or offer a single protocol version.', c.fallback_scsv.evidence, 'A-')
  if (c.early_data.ok === false) add('early_data_enabled', 'low', 'The server accepts TLS 1.3 early data (0-RTT): data sent with the first flight can be replayed by an attacker.', 'Disable early data, or accept only idempotent requests in it and reject replays (RFC 8470).', c.early_data.evidence)
  const noResumption = c.session_id_resumption.ok !== null && c.session_ticket_resumption.ok !== null && c.session_id_resumption.result !== 'supported' && c.session_ticket_resumption.result !== 'supported'
  if (noResumption) add('no_session_resumption', 'info', 'The server resumes sessions neither by id nor by ticket: every connection costs a full handshake.', 'Enable a session cache or session tickets (with keys rotated at least daily).', `${c.session_id_resumption.evidence} ${c.session_ticket_resumption.evidence}`)

  const tls13 = f.groups.tls13
  if (tls13 && !tls13.some((g) => g.post_quantum)) {
    add('no_post_quantum_group', 'low', 'TLS 1.3 is offered without a post-quantum key exchange: recorded traffic can be decrypted once a large quantum computer exists ("harvest now, decrypt later").', 'Offer the hybrid X25519MLKEM768 (OpenSSL 3.5, BoringSSL, Go 1.24, rustls, recent nginx/Caddy builds), which Mozilla’s profiles list first.', `Each of the ${PQ_GROUPS.length} post-quantum groups (${PQ_GROUPS.map((g) => g.name).join(', ')}) was offered alone in a TLS 1.3 hello; none was selected. Accepted: ${tls13.map((g) => g.name).join(', ') || 'none'}.`)
  }
  const weakGroups = [...(f.groups.tls12 ?? []), ...(tls13 ?? [])].filter((g, i, all) => all.findIndex((x) => x.id === g.id) === i && (groupBits(g.id) ?? 128) < 112)
  if (weakGroups.length) add('weak_groups', 'medium', `Key exchange groups below 112-bit security are accepted: ${weakGroups.map((g) => g.name).join(', ')}.`, 'Offer only x25519, secp256r1, secp384r1 (and X25519MLKEM768); drop the small curves.', `Each was offered alone and selected by the server.`, 'B')
  if (f.groups.ignores_client_curves) add('ignores_supported_groups', 'low', 'On TLS 1.2 the server answered with a curve the hello had not offered: it ignores the client’s supported_groups (RFC 8422 §5.1).', 'Update the TLS library.', 'A TLS 1.2 hello offering one curve got a ServerKeyExchange on another.')
  const md5 = [...(f.sigalgs.tls12 ?? [])].filter((s) => s.hash === 'md5')
  const sha1 = [...(f.sigalgs.tls12 ?? [])].filter((s) => s.hash === 'sha1')
  if (md5.length) add('md5_handshake_signatures', 'high', `The server signs its key exchange with MD5 when asked to (${md5.map((s) => s.name).join(', ')}): MD5 collisions make such signatures forgeable (SLOTH).`, 'Remove MD5 from the server’s signature algorithms.', `Offered alone in signature_algorithms on TLS 1.2, ${md5.map((s) => s.name).join(', ')} signed the ServerKeyExchange.`, 'C')
  if (sha1.length) add('sha1_handshake_signatures', 'low', `The server signs its TLS 1.2 key exchange with SHA-1 when a client asks for it (${sha1.map((s) => s.name).join(', ')}).`, 'Remove SHA-1 from the server’s signature algorithms unless very old clients need it.', `Offered alone in signature_algorithms on TLS 1.2, ${sha1.map((s) => s.name).join(', ')} signed the ServerKeyExchange.`)


  return out
}
