// IANA "Domain Name System (DNS) Parameters", sub-registry "Resource Record (RR)
// TYPEs" (https://www.iana.org/assignments/dns-parameters/dns-parameters.xhtml#dns-parameters-4).
//
// Written by hand from the registry as known in mid-2025 (no copy of the file was
// available offline), then cross-checked: every type dns-packet 5.6.1 names
// (node_modules/dns-packet/types.js) has the same number here, and so does every
// type this service's DNS client knows (runtime/net/dns/dns-types.ts); see
// test/data/dns-record-types.test.ts. Refresh against the registry when it changes.

export const DNS_TYPES_SOURCE = {
  name: 'IANA DNS Parameters: Resource Record (RR) TYPEs',
  url: 'https://www.iana.org/assignments/dns-parameters/dns-parameters.xhtml#dns-parameters-4',
  version: '2025-06 (hand-written copy)',
  licence: null,
  notes: [
    'typed in from the IANA registry as of mid-2025; numbers cross-checked against dns-packet 5.6.1 types.js and the service DNS client',
    'unassigned values are summarized in `ranges`, not listed',
  ],
}

export type DnsTypeKind = 'data' | 'query' | 'meta'
export type DnsTypeStatus = 'active' | 'experimental' | 'obsolete' | 'deprecated' | 'reserved'

export interface DnsTypeRow {
  type: string
  value: number
  meaning: string
  kind: DnsTypeKind
  status: DnsTypeStatus
  references: string[]
}

type Entry = [value: number, type: string, meaning: string, references: string, kind?: DnsTypeKind, status?: DnsTypeStatus]

// [value, TYPE, meaning, references, kind (default data), status (default active)]
const ENTRIES: Entry[] = [
  [1, 'A', 'a host address', 'RFC 1035'],
  [2, 'NS', 'an authoritative name server', 'RFC 1035'],
  [3, 'MD', 'a mail destination (obsolete: use MX)', 'RFC 1035', 'data', 'obsolete'],
  [4, 'MF', 'a mail forwarder (obsolete: use MX)', 'RFC 1035', 'data', 'obsolete'],
  [5, 'CNAME', 'the canonical name for an alias', 'RFC 1035'],
  [6, 'SOA', 'marks the start of a zone of authority', 'RFC 1035'],
  [7, 'MB', 'a mailbox domain name', 'RFC 1035', 'data', 'experimental'],
  [8, 'MG', 'a mail group member', 'RFC 1035', 'data', 'experimental'],
  [9, 'MR', 'a mail rename domain name', 'RFC 1035', 'data', 'experimental'],
  [10, 'NULL', 'a null RR', 'RFC 1035', 'data', 'experimental'],
  [11, 'WKS', 'a well known service description', 'RFC 1035'],
  [12, 'PTR', 'a domain name pointer', 'RFC 1035'],
  [13, 'HINFO', 'host information', 'RFC 1035'],
  [14, 'MINFO', 'mailbox or mail list information', 'RFC 1035'],
  [15, 'MX', 'mail exchange', 'RFC 1035'],
  [16, 'TXT', 'text strings', 'RFC 1035'],
  [17, 'RP', 'Responsible Person', 'RFC 1183'],
  [18, 'AFSDB', 'AFS Data Base location', 'RFC 1183, RFC 5864'],
  [19, 'X25', 'X.25 PSDN address', 'RFC 1183'],
  [20, 'ISDN', 'ISDN address', 'RFC 1183'],
  [21, 'RT', 'Route Through', 'RFC 1183'],
  [22, 'NSAP', 'NSAP address, NSAP style A record', 'RFC 1706', 'data', 'deprecated'],
  [23, 'NSAP-PTR', 'domain name pointer, NSAP style', 'RFC 1706', 'data', 'deprecated'],
  [24, 'SIG', 'security signature', 'RFC 2536, RFC 2931, RFC 3110, RFC 4034'],
  [25, 'KEY', 'security key', 'RFC 2536, RFC 2539, RFC 3110, RFC 4034'],
  [26, 'PX', 'X.400 mail mapping information', 'RFC 2163'],
  [27, 'GPOS', 'Geographical Position', 'RFC 1712'],
  [28, 'AAAA', 'IP6 Address', 'RFC 3596'],
  [29, 'LOC', 'Location Information', 'RFC 1876'],
  [30, 'NXT', 'Next Domain (obsolete)', 'RFC 2535, RFC 3755', 'data', 'obsolete'],
  [31, 'EID', 'Endpoint Identifier', 'Michael Patton'],
  [32, 'NIMLOC', 'Nimrod Locator', 'Michael Patton'],
  [33, 'SRV', 'Server Selection', 'RFC 2782'],
  [34, 'ATMA', 'ATM Address', 'ATM Forum AF-DANS-0152.000'],
  [35, 'NAPTR', 'Naming Authority Pointer', 'RFC 3403'],
  [36, 'KX', 'Key Exchanger', 'RFC 2230'],
  [37, 'CERT', 'CERT', 'RFC 4398'],
  [38, 'A6', 'A6 (obsolete: use AAAA)', 'RFC 2874, RFC 3226, RFC 6563', 'data', 'obsolete'],
  [39, 'DNAME', 'DNAME', 'RFC 6672'],
  [40, 'SINK', 'SINK', 'draft-eastlake-kitchen-sink'],
  [41, 'OPT', 'OPT (EDNS pseudo-record)', 'RFC 3225, RFC 6891', 'meta'],
  [42, 'APL', 'APL', 'RFC 3123'],
  [43, 'DS', 'Delegation Signer', 'RFC 4034'],
  [44, 'SSHFP', 'SSH Key Fingerprint', 'RFC 4255'],
  [45, 'IPSECKEY', 'IPSECKEY', 'RFC 4025'],
  [46, 'RRSIG', 'RRSIG', 'RFC 4034'],
  [47, 'NSEC', 'NSEC', 'RFC 4034, RFC 9077'],
  [48, 'DNSKEY', 'DNSKEY', 'RFC 4034'],
  [49, 'DHCID', 'DHCID', 'RFC 4701'],
  [50, 'NSEC3', 'NSEC3', 'RFC 5155, RFC 9077'],
  [51, 'NSEC3PARAM', 'NSEC3PARAM', 'RFC 5155'],
  [52, 'TLSA', 'TLSA', 'RFC 6698'],
  [53, 'SMIMEA', 'S/MIME cert association', 'RFC 8162'],
  [55, 'HIP', 'Host Identity Protocol', 'RFC 8005'],
  [56, 'NINFO', 'NINFO', 'Jim Reid'],
  [57, 'RKEY', 'RKEY', 'Jim Reid'],
  [58, 'TALINK', 'Trust Anchor LINK', 'Wouter Wijngaards'],
  [59, 'CDS', 'Child DS', 'RFC 7344'],
  [60, 'CDNSKEY', 'DNSKEY(s) the Child wants reflected in DS', 'RFC 7344'],
  [61, 'OPENPGPKEY', 'OpenPGP Key', 'RFC 7929'],
  [62, 'CSYNC', 'Child-To-Parent Synchronization', 'RFC 7477'],
  [63, 'ZONEMD', 'Message Digest Over Zone Data', 'RFC 8976'],
  [64, 'SVCB', 'General-purpose service binding', 'RFC 9460'],
  [65, 'HTTPS', 'SVCB-compatible type for use with HTTP', 'RFC 9460'],
  [66, 'DSYNC', 'Endpoint discovery for delegation synchronization', 'RFC 9859'],
  [67, 'HHIT', 'Hierarchical Host Identity Tag', 'draft-ietf-drip-registries'],
  [68, 'BRID', 'UAS Broadcast Remote Identification', 'draft-ietf-drip-registries'],
  [99, 'SPF', 'SPF (use TXT)', 'RFC 7208', 'data', 'obsolete'],
  [100, 'UINFO', 'reserved by IANA', 'IANA-Reserved', 'data', 'reserved'],
  [101, 'UID', 'reserved by IANA', 'IANA-Reserved', 'data', 'reserved'],
  [102, 'GID', 'reserved by IANA', 'IANA-Reserved', 'data', 'reserved'],
  [103, 'UNSPEC', 'reserved by IANA', 'IANA-Reserved', 'data', 'reserved'],
  [104, 'NID', 'Node Identifier (ILNP)', 'RFC 6742'],
  [105, 'L32', '32-bit Locator (ILNP)', 'RFC 6742'],
  [106, 'L64', '64-bit Locator (ILNP)', 'RFC 6742'],
  [107, 'LP', 'Locator FQDN (ILNP)', 'RFC 6742'],
  [108, 'EUI48', 'an EUI-48 address', 'RFC 7043'],
  [109, 'EUI64', 'an EUI-64 address', 'RFC 7043'],
  [128, 'NXNAME', 'NXDOMAIN indicator for Compact Denial of Existence', 'RFC 9824', 'meta'],
  [249, 'TKEY', 'Transaction Key', 'RFC 2930', 'meta'],
  [250, 'TSIG', 'Transaction Signature', 'RFC 8945', 'meta'],
  [251, 'IXFR', 'incremental transfer', 'RFC 1995', 'query'],
  [252, 'AXFR', 'transfer of an entire zone', 'RFC 1035, RFC 5936', 'query'],
  [253, 'MAILB', 'mailbox-related RRs (MB, MG or MR)', 'RFC 1035', 'query'],
  [254, 'MAILA', 'mail agent RRs (obsolete: see MX)', 'RFC 1035', 'query', 'obsolete'],
  [255, '*', 'a request for some or all records the server has available (ANY)', 'RFC 1035, RFC 6895, RFC 8482', 'query'],
  [256, 'URI', 'URI', 'RFC 7553'],
  [257, 'CAA', 'Certification Authority Restriction', 'RFC 8659'],
  [258, 'AVC', 'Application Visibility and Control', 'Wolfgang Riedel'],
  [259, 'DOA', 'Digital Object Architecture', 'draft-durand-doa-over-dns'],
  [260, 'AMTRELAY', 'Automatic Multicast Tunneling Relay', 'RFC 8777'],
  [261, 'RESINFO', 'Resolver Information as Key/Value Pairs', 'RFC 9606'],
  [262, 'WALLET', 'Public wallet address', 'Paul Hoffman'],
  [263, 'CLA', 'BP Convergence Layer Adapter', 'draft-johnson-dns-ipn-cla'],
  [264, 'IPN', 'BP Node Number', 'draft-johnson-dns-ipn-cla'],
  [32768, 'TA', 'DNSSEC Trust Authorities', 'Sam Weiler'],
  [32769, 'DLV', 'DNSSEC Lookaside Validation (obsolete)', 'RFC 8749, RFC 4431', 'data', 'obsolete'],
]

export const DNS_TYPES: readonly DnsTypeRow[] = ENTRIES.map(([value, type, meaning, references, kind = 'data', status = 'active']) => ({
  type,
  value,
  meaning,
  kind,
  status,
  references: references.split(', '),
}))

/** The registry's range rows (what is not an individual assignment). */
export const DNS_TYPE_RANGES = [
  { from: 0, to: 0, assignment: 'Reserved (RFC 6895)' },
  { from: 54, to: 54, assignment: 'Unassigned' },
  { from: 69, to: 98, assignment: 'Unassigned' },
  { from: 110, to: 127, assignment: 'Unassigned' },
  { from: 129, to: 248, assignment: 'Unassigned' },
  { from: 265, to: 32767, assignment: 'Unassigned' },
  { from: 32770, to: 65279, assignment: 'Unassigned' },
  { from: 65280, to: 65534, assignment: 'Private use (RFC 6895)' },
  { from: 65535, to: 65535, assignment: 'Reserved (RFC 6895)' },
]
