// DNS blocklists of the loopback internet: the default zones of
// INFRALENS_DNSBL_ZONES and INFRALENS_DOMAIN_BLOCKLIST_ZONES, each carrying its
// operator's documented test entry (127.0.0.2 for IP lists — RFC 5782 §5 — and
// dbltest.com / test.uribl.com / test.surbl.org for domain lists) with the return
// codes and TXT reasons the real lists give, so the examples answer offline.

function zone(origin: string, records: string): string {
  return `$ORIGIN ${origin}.
$TTL 300
@ IN SOA ns1.${origin}. hostmaster.${origin}. ( 1 3600 900 604800 60 )
@ IN NS ns1.${origin}.
ns1 IN A 192.0.2.53
${records}
`
}

const IP_TEST = '2.0.0.127'
/** 2001:db8::2, nibble-reversed. */
const IPV6_TEST = `2.${'0.'.repeat(23)}8.b.d.0.1.0.0.2`

export const DNSBL_ZONES: string[] = [
  zone(
    'zen.spamhaus.org',
    `${IP_TEST} IN A 127.0.0.2
${IP_TEST} IN A 127.0.0.4
${IP_TEST} IN A 127.0.0.10
${IP_TEST} IN TXT "Listed by SBL, see https://check.spamhaus.org/sbl/query/SBL2"
${IPV6_TEST} IN A 127.0.0.3`,
  ),
  zone('bl.spamcop.net', `${IP_TEST} IN A 127.0.0.2\n${IP_TEST} IN TXT "Blocked - see https://www.spamcop.net/bl.shtml?127.0.0.2"`),
  zone('b.barracudacentral.org', `${IP_TEST} IN A 127.0.0.2\n${IP_TEST} IN TXT "http://www.barracudanetworks.com/reputation/?pr=1&ip=127.0.0.2"`),
  zone('psbl.surriel.com', `${IP_TEST} IN A 127.0.0.2\n${IP_TEST} IN TXT "Listed in PSBL, see http://psbl.org/listing?ip=127.0.0.2"`),
  zone('bl.mailspike.net', `${IP_TEST} IN A 127.0.0.2\n${IP_TEST} IN TXT "Listed in Mailspike BL"`),
  zone('dnsbl-1.uceprotect.net', `${IP_TEST} IN A 127.0.0.2\n${IP_TEST} IN TXT "IP 127.0.0.2 is UCEPROTECT-Level1 listed."`),
  zone('dbl.spamhaus.org', 'dbltest.com IN A 127.0.1.2\ndbltest.com IN TXT "https://check.spamhaus.org/listed/?searchterm=dbltest.com"'),
  zone('multi.uribl.com', 'test.uribl.com IN A 127.0.0.14\ntest.uribl.com IN TXT "permanent testpoint"'),
  zone('multi.surbl.org', 'test.surbl.org IN A 127.0.0.216\ntest.surbl.org IN TXT "test.surbl.org is a test point"'),
]
