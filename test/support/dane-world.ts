import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BindServer } from './bind-server.ts'
import { startBind } from './bind-server.ts'
import type { FakeSmtp, FakeSmtpHost } from './fake-smtp.ts'
import { startFakeSmtp } from './fake-smtp.ts'
import type { Issued } from './tls-certs.ts'
import { issue, keyPair } from './tls-certs.ts'
import type { SignedTree } from './signed-tree.ts'
import { signTree } from './signed-tree.ts'
import type { TlsTestServer } from './tls-servers.ts'
import { startTlsServer } from './tls-servers.ts'

// DANE on the loopback internet: mail and web hosts with certificates made for this
// run (root -> issuing CA -> leaves), TLSA records naming them — right, and wrong on
// purpose — in a zone "dane." signed by BIND's signer under a test root, plus an
// unsigned "plain." zone, all served by a real named. Every case is one name; its
// expected verdict is written beside it and checked by test/dane against the
// service, delv (DNSSEC) and openssl s_client -dane_tlsa_rrdata (matching).

const DAY = 86_400_000
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex')
const spki = (c: Issued) => c.x509.publicKey.export({ type: 'spki', format: 'der' })
/** TLSA rdata as a zone file (and openssl -dane_tlsa_rrdata) writes it. */
export const tlsa311 = (c: Issued) => `3 1 1 ${sha256(spki(c))}`
export const tlsa301 = (c: Issued) => `3 0 1 ${sha256(c.der)}`
export const tlsa211 = (c: Issued) => `2 1 1 ${sha256(spki(c))}`
export const tlsa201 = (c: Issued) => `2 0 1 ${sha256(c.der)}`
export const tlsa111 = (c: Issued) => `1 1 1 ${sha256(spki(c))}`

export interface MailCase {
  /** The mail domain (MX owner). */
  domain: string
  mx: string
  address: string
  /** The TLSA RRset at _25._tcp.<mx>. */
  tlsa: string[]
  starttls: boolean
  /** false: nothing listens at the address (the host is down). */
  up: boolean
  /** The leaf and the issuing CA it is served with. */
  served: Issued[]
}

export interface DaneWorld {
  bind: BindServer
  tree: SignedTree
  smtp: FakeSmtp
  web: TlsTestServer
  /** The web host and the TLSA records at _<port>._tcp of it. */
  webHost: { host: string; address: string; port: number; tlsa: string[] }
  mail: Record<string, MailCase>
  /** PEM of the test root (INFRALENS_EXTRA_CA_FILE, openssl -CAfile). */
  caFile: string
  env: Record<string, string>
  close(): Promise<void>
}

export async function startDaneWorld(): Promise<DaneWorld> {
  const now = Date.now()
  const dates = { notBefore: new Date(now - DAY), notAfter: new Date(now + 90 * DAY) }
  const root = issue({ subject: { cn: 'DANE Test Root' }, ca: true, key: keyPair({ type: 'ec', curve: 'P-256' }, true), notBefore: new Date(now - 365 * DAY), notAfter: new Date(now + 3650 * DAY) })
  const ca = issue({ subject: { cn: 'DANE Test Issuing CA' }, issuer: root, ca: true, pathLength: 0, key: keyPair({ type: 'ec', curve: 'P-256' }, true), notBefore: root.spec.notBefore!, notAfter: root.spec.notAfter! })
  const leaf = (names: string[]) => issue({ subject: { cn: names[0]! }, dns: names, issuer: ca, key: keyPair({ type: 'ec', curve: 'P-256' }, true), ...dates })
  const other = leaf(['unrelated.dane']) // a key and certificate no host serves
  const at = (n: number) => `127.0.23.${n}`

  const m = (domain: string, n: number, tlsa: (c: Issued) => string[], options: { names?: string[]; starttls?: boolean; up?: boolean } = {}): MailCase => {
    const mx = `mx.${domain}`
    const cert = leaf(options.names ?? [mx])
    return { domain, mx, address: at(n), tlsa: tlsa(cert), starttls: options.starttls ?? true, up: options.up ?? true, served: [cert, ca] }
  }
  const mail: Record<string, MailCase> = {
    // 3 1 1 of the leaf and 2 1 1 of its issuer: valid, and a new leaf from the same CA keeps working
    good: m('good.dane', 1, (c) => [tlsa311(c), tlsa211(ca)]),
    // current + next key: valid, rollover ready
    next: m('next.dane', 2, (c) => [tlsa311(c), tlsa311(other)]),
    // only the current key: valid, but no record for the next one
    single: m('single.dane', 3, (c) => [tlsa311(c)]),
    // records for a key and certificate the host does not serve
    mismatch: m('mismatch.dane', 4, () => [tlsa311(other), tlsa301(other)]),
    // PKIX-EE on SMTP: unusable (RFC 7672 §3.1.3), though its data matches
    pkix: m('pkix.dane', 5, (c) => [tlsa111(c)]),
    // the TLSA RRset's signature altered: bogus
    bogus: m('bogus.dane', 6, (c) => [tlsa311(c)]),
    // secure TLSA, but the host offers no STARTTLS
    nostarttls: m('nostarttls.dane', 7, (c) => [tlsa311(c)], { starttls: false }),
    // DANE-TA of the issuing CA, but the leaf names another host
    taname: m('taname.dane', 8, () => [tlsa201(ca)], { names: ['elsewhere.dane'] }),
    // a record with a matching type nobody defines (9) beside the right one: ignored, reported
    odd: m('odd.dane', 11, (c) => [tlsa311(c), '3 1 9 00112233445566778899aabbccddeeff']),
    // secure TLSA, nothing listening: the certificate cannot be checked
    down: m('down.dane', 12, (c) => [tlsa311(c)], { up: false }),
    // no TLSA at all
    none: m('none.dane', 9, () => []),
    // TLSA in an unsigned zone: ignored by DANE clients
    insecure: m('insecure.plain', 10, (c) => [tlsa311(c)]),
  }
  const dir = mkdtempSync(join(tmpdir(), 'infralens-dane-'))
  const caFile = join(dir, 'root.pem')
  writeFileSync(caFile, root.pem)
  const closers: Array<() => Promise<void> | void> = [() => rmSync(dir, { recursive: true, force: true })]
  try {
    const hosts: FakeSmtpHost[] = Object.values(mail).filter((c) => c.up).map((c) => ({
      address: c.address,
      hostname: c.mx,
      ...(c.starttls ? { tls: { key: c.served[0]!.key.pem, cert: c.served.map((s) => s.pem).join('') } } : {}),
    }))
    const smtp = await startFakeSmtp(hosts)
    closers.push(() => smtp.close())
    const wwwCert = leaf(['www.dane'])
    const web = await startTlsServer({ address: at(20), leaf: wwwCert, chain: [ca] })
    closers.push(() => web.close())
    const webHost = { host: 'www.dane', address: at(20), port: web.port, tlsa: [tlsa301(wwwCert), tlsa211(ca)] }

    const zone = (origin: string, cases: MailCase[], extra: string[] = []) =>
      [
        `$ORIGIN ${origin}.`,
        '$TTL 300',
        '@ IN SOA ns.root-servers.test. hostmaster.root-servers.test. 1 3600 900 604800 60',
        '@ IN NS ns.root-servers.test.',
        ...cases.flatMap((c) => [`${c.domain}. IN MX 10 ${c.mx}.`, `${c.mx}. IN A ${c.address}`, ...c.tlsa.map((t) => `_25._tcp.${c.mx}. IN TLSA ${t}`)]),
        ...extra,
      ].join('\n') + '\n'
    const signed = Object.values(mail).filter((c) => c.domain.endsWith('.dane'))
    const plain = Object.values(mail).filter((c) => c.domain.endsWith('.plain'))
    const tree = signTree([
      {
        origin: 'dane',
        signed: true,
        text: zone('dane', signed, [`www.dane. IN A ${webHost.address}`, ...webHost.tlsa.map((t) => `_${web.port}._tcp.www.dane. IN TLSA ${t}`)]),
        corrupt: [{ owner: `_25._tcp.${mail.bogus!.mx}.`, type: 'TLSA' }],
      },
      // mixed.plain: an insecure MX RRset pointing at a host whose TLSA is secure
      { origin: 'plain', signed: false, text: zone('plain', plain, [`mixed.plain. IN MX 10 ${mail.good!.mx}.`]) },
    ])
    closers.push(() => tree.close())
    const bind = await startBind(tree.zones)
    closers.push(() => bind.close())
    return {
      bind,
      tree,
      smtp,
      web,
      webHost,
      mail,
      caFile,
      env: {
        INFRALENS_DNS_RESOLVERS: `${bind.host}:${bind.port}`,
        INFRALENS_TRUST_ANCHORS: tree.anchorDs,
        INFRALENS_SMTP_PORT: String(smtp.port),
        INFRALENS_EXTRA_CA_FILE: caFile,
        INFRALENS_ALLOW_PRIVATE_TARGETS: 'true',
        INFRALENS_DNS_TIMEOUT_MS: '1000',
        INFRALENS_RATE_LIMITS: 'anonymous=100000',
      },
      close: async () => {
        for (const close of closers.reverse()) await close()
      },
    }
  } catch (error) {
    for (const close of closers.reverse()) await close()
    throw error
  }
}
