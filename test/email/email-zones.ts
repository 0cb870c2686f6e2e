import { generateKeyPairSync } from 'node:crypto'

// Zones for the email end-to-end tests: good.test does everything right,
// broken.test most things wrong. Mail hosts live on 127.0.25.x (fake SMTP), the
// MTA-STS policy host on 127.0.44.1:443 (fake HTTPS).

export const SMTP = { good1: '127.0.25.1', good2: '127.0.25.4', plain: '127.0.25.2', badTls: '127.0.25.3', refuses: '127.0.25.5', dead: '127.0.25.9' } as const
export const HTTPS_ADDRESS = '127.0.44.1'
/** Nothing listens here: an MTA-STS host that does not answer. */
export const HTTPS_DEAD = '127.0.44.9'

/** A DKIM p= value: the SPKI of a fresh RSA key, as TXT strings of at most 200 characters. */
export function dkimKey(bits: number): string {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits })
  const b64 = publicKey.export({ type: 'spki', format: 'der' }).toString('base64')
  return b64.match(/.{1,200}/g)!.join('" "')
}

export function goodZone(): string {
  return `
$ORIGIN good.test.
$TTL 300
@   IN SOA ns1 hostmaster ( 1 3600 900 604800 300 )
@   IN NS  ns1
ns1 IN A   127.0.25.53
@   IN MX  10 mx1
@   IN MX  20 mx2
mx1 IN A   ${SMTP.good1}
mx2 IN A   ${SMTP.good2}
@   IN TXT "v=spf1 mx include:_spf.good.test -all"
_spf IN TXT "v=spf1 ip4:198.51.100.0/24 ip6:2001:db8:25::/48 -all"
_dmarc IN TXT "v=DMARC1; p=reject; rua=mailto:dmarc@good.test,mailto:agg@reports.test; adkim=s"
selector1._domainkey IN TXT "v=DKIM1; k=rsa; " "p=${dkimKey(2048)}"
_mta-sts IN TXT "v=STSv1; id=20261122"
mta-sts IN A ${HTTPS_ADDRESS}
_smtp._tls IN TXT "v=TLSRPTv1; rua=mailto:tlsrpt@good.test"
default._bimi IN TXT "v=BIMI1; l=https://good.test/logo.svg; a=https://good.test/vmc.pem"
`
}

export function brokenZone(): string {
  return `
$ORIGIN broken.test.
$TTL 300
@   IN SOA ns1 hostmaster ( 1 3600 900 604800 300 )
@   IN NS  ns1
ns1 IN A   127.0.25.53
@   IN MX  10 mx
@   IN MX  20 alias
@   IN MX  30 tlsbad
@   IN MX  40 dead
@   IN MX  50 refuses
mx     IN A   ${SMTP.plain}
alias  IN CNAME mx
tlsbad IN A   ${SMTP.badTls}
dead   IN A   ${SMTP.dead}
refuses IN A  ${SMTP.refuses}
@   IN TXT "v=spf1 ptr a:void1.broken.test a:void2.broken.test a:void3.broken.test include:l1.broken.test ?all ip4:198.51.100.7"
l1  IN TXT "v=spf1 include:l2.broken.test a mx ~all"
l2  IN TXT "v=spf1 a a a a ~all"
l1  IN A   198.51.100.1
l2  IN A   198.51.100.2
_dmarc IN TXT "v=DMARC1; p=none; pct=50; rua=mailto:agg@thirdparty.test; foo=bar"
default._domainkey IN TXT "v=DKIM1; k=rsa; t=y; p=${dkimKey(1024)}"
s1._domainkey IN TXT "v=DKIM1; k=rsa; p=${dkimKey(512)}"
_mta-sts IN TXT "v=STSv1; id=1"
mta-sts IN A ${HTTPS_ADDRESS}
`
}

export const OTHER_ZONES = [
  `
$ORIGIN reports.test.
$TTL 300
@ IN SOA ns1 hostmaster ( 1 3600 900 604800 300 )
@ IN NS ns1
ns1 IN A 127.0.25.53
good.test._report._dmarc IN TXT "v=DMARC1"
`,
  `
$ORIGIN thirdparty.test.
$TTL 300
@ IN SOA ns1 hostmaster ( 1 3600 900 604800 300 )
@ IN NS ns1
ns1 IN A 127.0.25.53
`,
  `
$ORIGIN 25.0.127.in-addr.arpa.
$TTL 300
@ IN SOA ns1.good.test. hostmaster.good.test. ( 1 3600 900 604800 300 )
@ IN NS ns1.good.test.
1 IN PTR mx1.good.test.
4 IN PTR mx2.good.test.
2 IN PTR mail.broken.test.
`,
]

export const GOOD_POLICY = 'version: STSv1\r\nmode: enforce\r\nmx: *.good.test\r\nmax_age: 604800\r\n'
export const BROKEN_POLICY = 'version: STSv1\nmode: enforce\nmx: mx.broken.test\nmax_age: 3600\n'

/**
 * A domain whose MTA-STS setup fails one way: the TXT record as given, mta-sts.<name>
 * at the given address, mail to mx1.good.test (which works, so the part applies).
 */
export function mtaStsZone(name: string, options: { record: string; policyHost: string; extra?: string }): string {
  return `
$ORIGIN ${name}.
$TTL 300
@   IN SOA ns1 hostmaster ( 1 3600 900 604800 300 )
@   IN NS  ns1
ns1 IN A   127.0.25.53
@   IN MX  10 mx1.good.test.
_mta-sts IN TXT "${options.record}"
mta-sts  IN A   ${options.policyHost}
${options.extra ?? ''}
`
}

/** A valid policy covering the MX host of the mtaStsZone domains. */
export const COVERING_POLICY = 'version: STSv1\nmode: enforce\nmx: mx1.good.test\nmax_age: 604800\n'
