// Prefixes of well-known anycast services, for the intelligence answer's anycast
// flag. Compiled by hand on 2026-11-23 from the operators' own publications (each
// entry names its source); the service addresses are published, the prefix is
// the /24 (IPv4) or /48 (IPv6) around them, the smallest blocks that propagate
// in BGP. Not verified against live routing from here (the service is built
// offline). Deliberately short: a match means "a documented anycast service",
// no match means "not on this list", never "unicast".
//
// Root servers: the IANA root hints file (https://www.internic.net/domain/named.root)
// and https://root-servers.org, B-root's renumbering of 2023-11-27 included.

export interface AnycastEntry {
  prefix: string
  service: string
  source: string
}

const ROOT_HINTS = 'IANA root hints, https://www.internic.net/domain/named.root'

export const ANYCAST_PREFIXES: readonly AnycastEntry[] = [
  { prefix: '198.41.0.0/24', service: 'a.root-servers.net (Verisign)', source: ROOT_HINTS },
  { prefix: '2001:503:ba3e::/48', service: 'a.root-servers.net (Verisign)', source: ROOT_HINTS },
  { prefix: '170.247.170.0/24', service: 'b.root-servers.net (USC/ISI)', source: ROOT_HINTS },
  { prefix: '2801:1b8:10::/48', service: 'b.root-servers.net (USC/ISI)', source: ROOT_HINTS },
  { prefix: '192.33.4.0/24', service: 'c.root-servers.net (Cogent)', source: ROOT_HINTS },
  { prefix: '2001:500:2::/48', service: 'c.root-servers.net (Cogent)', source: ROOT_HINTS },
  { prefix: '199.7.91.0/24', service: 'd.root-servers.net (University of Maryland)', source: ROOT_HINTS },
  { prefix: '2001:500:2d::/48', service: 'd.root-servers.net (University of Maryland)', source: ROOT_HINTS },
  { prefix: '192.203.230.0/24', service: 'e.root-servers.net (NASA Ames)', source: ROOT_HINTS },
  { prefix: '2001:500:a8::/48', service: 'e.root-servers.net (NASA Ames)', source: ROOT_HINTS },
  { prefix: '192.5.5.0/24', service: 'f.root-servers.net (ISC)', source: ROOT_HINTS },
  { prefix: '2001:500:2f::/48', service: 'f.root-servers.net (ISC)', source: ROOT_HINTS },
  { prefix: '192.112.36.0/24', service: 'g.root-servers.net (US DoD NIC)', source: ROOT_HINTS },
  { prefix: '2001:500:12::/48', service: 'g.root-servers.net (US DoD NIC)', source: ROOT_HINTS },
  { prefix: '198.97.190.0/24', service: 'h.root-servers.net (US Army Research Lab)', source: ROOT_HINTS },
  { prefix: '2001:500:1::/48', service: 'h.root-servers.net (US Army Research Lab)', source: ROOT_HINTS },
  { prefix: '192.36.148.0/24', service: 'i.root-servers.net (Netnod)', source: ROOT_HINTS },
  { prefix: '2001:7fe::/48', service: 'i.root-servers.net (Netnod)', source: ROOT_HINTS },
  { prefix: '192.58.128.0/24', service: 'j.root-servers.net (Verisign)', source: ROOT_HINTS },
  { prefix: '2001:503:c27::/48', service: 'j.root-servers.net (Verisign)', source: ROOT_HINTS },
  { prefix: '193.0.14.0/24', service: 'k.root-servers.net (RIPE NCC)', source: ROOT_HINTS },
  { prefix: '2001:7fd::/48', service: 'k.root-servers.net (RIPE NCC)', source: ROOT_HINTS },
  { prefix: '199.7.83.0/24', service: 'l.root-servers.net (ICANN)', source: ROOT_HINTS },
  { prefix: '2001:500:9f::/48', service: 'l.root-servers.net (ICANN)', source: ROOT_HINTS },
  { prefix: '202.12.27.0/24', service: 'm.root-servers.net (WIDE)', source: ROOT_HINTS },
  { prefix: '2001:dc3::/48', service: 'm.root-servers.net (WIDE)', source: ROOT_HINTS },
  { prefix: '192.175.48.0/24', service: 'AS112 reverse-DNS sink (prisoner.iana.org)', source: 'RFC 7534 §3.1' },
  { prefix: '2620:4f:8000::/48', service: 'AS112 reverse-DNS sink', source: 'RFC 7534 §3.1' },
  { prefix: '192.31.196.0/24', service: 'AS112 DNAME redirection sink (as112.arpa)', source: 'RFC 7535 §3.2' },
  { prefix: '2001:4:112::/48', service: 'AS112 DNAME redirection sink (as112.arpa)', source: 'RFC 7535 §3.2' },
  { prefix: '1.1.1.0/24', service: 'Cloudflare public DNS 1.1.1.1', source: 'https://developers.cloudflare.com/1.1.1.1/ip-addresses/' },
  { prefix: '1.0.0.0/24', service: 'Cloudflare public DNS 1.0.0.1', source: 'https://developers.cloudflare.com/1.1.1.1/ip-addresses/' },
  { prefix: '2606:4700:4700::/48', service: 'Cloudflare public DNS', source: 'https://developers.cloudflare.com/1.1.1.1/ip-addresses/' },
  { prefix: '8.8.8.0/24', service: 'Google Public DNS 8.8.8.8', source: 'https://developers.google.com/speed/public-dns/docs/using' },
  { prefix: '8.8.4.0/24', service: 'Google Public DNS 8.8.4.4', source: 'https://developers.google.com/speed/public-dns/docs/using' },
  { prefix: '2001:4860:4860::/48', service: 'Google Public DNS', source: 'https://developers.google.com/speed/public-dns/docs/using' },
  { prefix: '9.9.9.0/24', service: 'Quad9 9.9.9.9', source: 'https://www.quad9.net/service/service-addresses-and-features' },
  { prefix: '149.112.112.0/24', service: 'Quad9 149.112.112.112', source: 'https://www.quad9.net/service/service-addresses-and-features' },
  { prefix: '2620:fe::/48', service: 'Quad9', source: 'https://www.quad9.net/service/service-addresses-and-features' },
  { prefix: '208.67.222.0/24', service: 'OpenDNS 208.67.222.222', source: 'https://support.opendns.com/hc/en-us/articles/227986667' },
  { prefix: '208.67.220.0/24', service: 'OpenDNS 208.67.220.220', source: 'https://support.opendns.com/hc/en-us/articles/227986667' },
  { prefix: '2620:119:35::/48', service: 'OpenDNS', source: 'https://support.opendns.com/hc/en-us/articles/227986667' },
  { prefix: '2620:119:53::/48', service: 'OpenDNS', source: 'https://support.opendns.com/hc/en-us/articles/227986667' },
]
