import type { CatalogEntry } from '../../dns/schemas/operator-findings.ts'

// Every finding /api/domain/delegation can emit (docs/dns.md lists them; test/delegation
// checks the two agree), with the Zonemaster test case that checks the same thing.

export const DELEGATION_FINDINGS = {
  'delegation.no_nameservers': { severity: 'critical', meaning: 'The domain has no NS records (or does not exist): nothing to check.' },
  'delegation.ns_no_address': { severity: 'high', meaning: 'A name of the NS set has no A or AAAA record: no resolver can reach that server.' },
  'delegation.parent_child_ns_differ': { severity: 'medium', meaning: 'The NS set the parent delegates to differs from the one the zone itself publishes: resolvers use either, depending on what they have cached.' },
  'delegation.parent_servers_differ': { severity: 'medium', meaning: 'The parent\'s servers give different referrals (NS set or glue) for the domain: some have not picked up the latest delegation.' },
  'delegation.glue_missing': { severity: 'high', meaning: 'A name server inside the delegated zone has no glue address in the parent\'s referral: resolvers cannot find it without it.' },
  'delegation.glue_mismatch': { severity: 'high', meaning: 'The parent\'s glue for a name server gives other addresses than the zone\'s own A/AAAA records.', zonemaster: 'CONSISTENCY05' },
  'delegation.parent_unchecked': { severity: 'info', meaning: 'No server of the parent zone could be asked for the delegation, so the parent\'s NS set and glue were not checked.' },
  'delegation.lame': { severity: 'high', meaning: 'A name server of the NS set does not answer authoritatively for the zone (REFUSED, no AA flag, or another error): resolvers that pick it fail or retry.', zonemaster: 'DELEGATION04' },
  'delegation.unreachable': { severity: 'high', meaning: 'A name server did not answer over UDP within the deadline.', zonemaster: 'CONNECTIVITY01' },
  'delegation.tcp_unsupported': { severity: 'medium', meaning: 'A name server answers over UDP but not over TCP, which large answers and DNSSEC need (RFC 7766).', zonemaster: 'CONNECTIVITY02' },
  'delegation.edns_unsupported': { severity: 'medium', meaning: 'A name server answers plain queries but not a query with an OPT record (EDNS0, RFC 6891): FORMERR, a reply without OPT, or none. DNSSEC and answers over 512 bytes need EDNS0.', zonemaster: 'EDNS01' },
  'delegation.serial_mismatch': { severity: 'medium', meaning: 'The name servers give different SOA serials: some have not picked up the latest zone.', zonemaster: 'CONSISTENCY01' },
  'delegation.ns_set_mismatch': { severity: 'medium', meaning: 'A name server\'s own NS set differs from the one the resolver returns for the zone.', zonemaster: 'CONSISTENCY04' },
  'delegation.open_recursion': { severity: 'high', meaning: 'A name server offers recursion to anyone (RA set for our query): it can be abused for amplification and cache poisoning.', zonemaster: 'NAMESERVER01' },
  'delegation.axfr_allowed': { severity: 'medium', meaning: 'A name server hands the whole zone to anyone who asks (AXFR).', zonemaster: 'NAMESERVER03' },
  'delegation.ns_single_as': { severity: 'low', meaning: 'Every name server address is in one AS (bundled offline AS data): one network\'s outage or route leak takes the zone\'s DNS down.', zonemaster: 'CONNECTIVITY03' },
  'delegation.ns_single_prefix': { severity: 'medium', meaning: 'Every name server address is in one /24 (IPv4) and one /48 (IPv6): one route withdrawn or hijacked takes every name server with it.', zonemaster: 'CONNECTIVITY04' },
  'delegation.ds_no_matching_dnskey': { severity: 'critical', meaning: 'The parent publishes DS records and none of them names a DNSKEY of the zone (a stale DS after a key change): validating resolvers fail every name in the zone (SERVFAIL).', zonemaster: 'DNSSEC02' },
  'delegation.rdap_ds_differ': { severity: 'medium', meaning: 'The DS records in DNS differ from the registry\'s secureDNS in RDAP: the registry has not published what it holds, or holds a stale set.' },
  'delegation.rdap_unavailable': { severity: 'info', meaning: 'The parent publishes DS records, but the registry\'s RDAP secureDNS could not be read (no RDAP for the TLD, an error, or a WHOIS-only answer): DNS and registry were not compared.' },
  'delegation.address_refused': { severity: 'info', meaning: 'A name server\'s address is one the service never connects to (private, loopback, reserved): it was not asked.' },
} as const satisfies Record<string, CatalogEntry>

export type DelegationFindingId = keyof typeof DELEGATION_FINDINGS
