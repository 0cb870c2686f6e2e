import type { TestDnsServer, ZoneSource } from './dns-server.ts'
import { startDnsServer } from './dns-server.ts'

// The DNS part of the loopback internet: authoritative servers on 127.0.0.x that
// stand in for the public resolvers, and the env that points the app at them.

export const SERVICE_ZONE = `
$ORIGIN infralens.test.
$TTL 300
@        IN SOA  ns1 hostmaster ( 2026112201 3600 900 604800 120 )
@        IN NS   ns1
@        IN NS   ns2
ns1      IN A    192.0.2.53
ns2      IN A    192.0.2.54
@        IN A    192.0.2.10
@     60 IN A    192.0.2.11
@        IN AAAA 2001:db8::10
@        IN MX   10 mx1
@        IN MX   20 mx2
mx1      IN A    192.0.2.25
mx2      IN A    192.0.2.26
@        IN TXT  "v=spf1 ip4:192.0.2.0/24 " "include:_spf.infralens.test -all"
@        IN TXT  "google-site-verification=abc123"
@        IN CAA  0 issue "letsencrypt.org"
www      IN CNAME web
web      IN CNAME @
only-v6  IN AAAA 2001:db8::66
host     IN A    192.0.2.1
host     IN AAAA 2001:db8::1
liar     IN A    192.0.2.99
`

export const REVERSE_ZONE = `
$ORIGIN 2.0.192.in-addr.arpa.
$TTL 600
@   IN SOA ns1.infralens.test. hostmaster.infralens.test. ( 1 3600 900 604800 120 )
@   IN NS  ns1.infralens.test.
1   IN PTR host.infralens.test.
2   IN PTR liar.infralens.test.
2   IN PTR host.infralens.test.
3   IN PTR nowhere.infralens.test.
`

export const REVERSE6_ZONE = `
$ORIGIN 8.b.d.0.1.0.0.2.ip6.arpa.
$TTL 600
@   IN SOA ns1.infralens.test. hostmaster.infralens.test. ( 1 3600 900 604800 120 )
@   IN NS  ns1.infralens.test.
1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0 IN PTR host.infralens.test.
`

// The names the descriptors' examples use, so every example answers offline.
export const EXAMPLE_ZONE = `
$ORIGIN example.com.
$TTL 3600
@    IN SOA  ns.icann.org. noc.dns.icann.org. ( 2026112201 7200 3600 1209600 3600 )
@    IN NS   a.iana-servers.net.
@    IN NS   b.iana-servers.net.
@    IN A    93.184.215.14
@    IN AAAA 2606:2800:21f:cb07:6820:80da:af6b:8b2c
@    IN MX   0 .
@    IN TXT  "v=spf1 -all"
@    IN TXT  "_k2n1y4vw3qtb4skdx9e7dxt97qrmmq9"
@    IN CAA  0 issue "digicert.com"
www  IN CNAME example.com.
_dmarc IN TXT "v=DMARC1;p=reject;sp=reject;adkim=s;aspf=s"
; for the record types of /api/dns/<type> and /api/dns/query (the DS would live in com.;
; this fake resolver serves only example.com, so it answers it from here)
@    IN HTTPS 1 . alpn="h2,h3"
@    IN DNSKEY 257 3 13 lcMIEDADg+qZ+n1Jr7KIfBTfW06Xsvvg33wU5A7eSwZ4BcqAwOl3cMRQ NuDwuwm6m3tRy0YZAp0FdhVWc+/Ckw==
@    IN DS   61212 13 2 53F26D0558DAE29D6738E2711D168358C72FF2E30EE9EB15C644694389DADC9A
_sip._tcp IN SRV 10 60 5060 sip.example.com.
_443._tcp IN TLSA 3 1 1 8BD1DA95272F7FA4FFB24137FC0ED03AAE67E5C4D8B3C50734E1050A7920B922
`

export const GOOGLE_REVERSE_ZONE = `
$ORIGIN 8.8.8.in-addr.arpa.
$TTL 3600
@ IN SOA ns1.google.com. dns-admin.google.com. ( 1 900 900 1800 60 )
@ IN NS  ns1.google.com.
8 IN PTR dns.google.
`

export const GOOGLE_ZONE = `
$ORIGIN dns.google.
$TTL 3600
@ IN SOA ns1.zdns.google. cloud-dns-hostmaster.google.com. ( 1 21600 3600 259200 300 )
@ IN NS  ns1.zdns.google.
@ IN A   8.8.8.8
@ IN A   8.8.4.4
`

export const DEFAULT_ZONES: ZoneSource[] = [SERVICE_ZONE, REVERSE_ZONE, REVERSE6_ZONE, EXAMPLE_ZONE, GOOGLE_REVERSE_ZONE, GOOGLE_ZONE]

export interface LoopbackDns {
  resolver: TestDnsServer
  propagation: TestDnsServer[]
  env: Record<string, string>
  close(): Promise<void>
}

/**
 * One "recursive" resolver for the app (127.0.0.2) and `propagation` more
 * (127.0.0.3, ...), each serving the given zones; per-server zones override.
 */
export async function startLoopbackDns(options: { zones?: ZoneSource[]; propagation?: ZoneSource[][]; timeoutMs?: number } = {}): Promise<LoopbackDns> {
  const zones = options.zones ?? DEFAULT_ZONES
  const resolver = await startDnsServer({ host: '127.0.0.2', zones })
  const propagation = await Promise.all((options.propagation ?? [zones, zones, zones]).map((z, i) => startDnsServer({ host: `127.0.0.${3 + i}`, zones: z })))
  return {
    resolver,
    propagation,
    env: {
      INFRALENS_DNS_RESOLVERS: `${resolver.host}:${resolver.port}`,
      INFRALENS_PROPAGATION_RESOLVERS: propagation.map((s, i) => `pub${i + 1}=${s.host}:${s.port}`).join(','),
      INFRALENS_DNS_TIMEOUT_MS: String(options.timeoutMs ?? 400),
      INFRALENS_ALLOW_PRIVATE_TARGETS: 'true',
    },
    async close() {
      await Promise.all([resolver, ...propagation].map((s) => s.close()))
    },
  }
}
