// Zones for the DNS tests: one with every record type the client decodes, written the
// way real master files are (relative names, multi-line parentheses, escapes).

import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const FIXTURES = fileURLToPath(new URL('../fixtures/dns/', import.meta.url))
export const fixture = (file: string): string => join(FIXTURES, file)

export const KSK = 'AwEAAaYL5iwWI6UgSQVcDZmH7DrhQU/P6cOfi4wXYDzHypsfZ1D8znPwoAqhj54kTBVqgZDHw8QEnMcS3TWxvHBvncRTIXhCLx0BNK5/6mcTSK2IDbxl0j4vkcQrOxc77tyExuFfuXouuKVtE7rggOJiX6ga5LJW2if6Jxe/Rh8+aJv7'
export const ZSK = 'AwEAAbsD4Tcz8hl2Rldov4CrfYpK3ORIh/giSGDlZaDTZR4gpGxGvMBwu2jzQ3m0iX3PvqPoaybC4tznjlJi8g/qsCRHhOkqWmjtmOYOJXEuUTb+4tPBkiboJM5QchxTfKxkYbJ2AD+VAUX1S6h/0DI0ZCGx1H90QTBE2ymRgHBwUfBt'
export const DS_DIGEST = '0675d8c4a90ecd25492e4c4c6583afcef7c3b910b7a39162803058e6e7393a19'
export const TLSA_DATA = 'd2abde240d7cd3ee6b4b28c54df034b97983a1d16e8a410e4561cb106618e971'
export const SSHFP_FP = '123456789abcdef67890123456789abcdef67890123456789abcdef123456789'
export const ZONEMD_DIGEST = 'f1ca0ccd91bd5573d9f431c00ee0101b2545c97602be0a978a3b11dbfc1c776d5b3e86ae3d973d6b5349ba7f04340f79'
export const BIG_TXT_STRINGS = 12

export const TYPES_ZONE = `
; Every type the client decodes, at types.test.
$ORIGIN types.test.
$TTL 300
@       IN  SOA ns1 hostmaster.types.test. (
                2024010101 ; serial
                1h         ; refresh
                15m        ; retry
                1w         ; expire
                60 )       ; negative TTL
        IN  NS  ns1
        IN  NS  ns2.elsewhere.test.
ns1     IN  A     192.0.2.53
        IN  AAAA  2001:db8::53
@       IN  A     192.0.2.1
@       600 IN AAAA 2001:db8::1
@       IN  MX    10 mail
@       IN  MX    20 mail.elsewhere.test.
mail    IN  A     192.0.2.25
@       IN  TXT   "v=spf1 ip4:192.0.2.0/24 " "-all"
@       IN  SPF   "v=spf1 -all"
txt     IN  TXT   "with \\"quotes\\" and \\\\ backslash" plain "semi;colon"
bin     IN  TXT   "\\255\\000\\195" "\\169caf\\195\\169"
long    IN  TXT   ( "part one, "
                    "part two; "
                    "part three" )
big     IN  TXT   ( ${Array.from({ length: BIG_TXT_STRINGS }, (_, i) => `"${String(i).padStart(2, '0')}${'x'.repeat(198)}"`).join('\n                    ')} )
mid     IN  TXT   "${'a'.repeat(200)}" "${'b'.repeat(200)}" "${'c'.repeat(200)}"
www     IN  CNAME @
alias   IN  CNAME www
dangling IN CNAME gone
external IN CNAME target.elsewhere.test.
dn      IN  DNAME types.example.
@       IN  CAA   0 issue "letsencrypt.org"
@       IN  CAA   128 iodef "mailto:security@types.test"
ptr     IN  PTR   host.types.test.
_sip._tcp IN SRV  10 60 5060 sip
sip     IN  A     192.0.2.60
@       IN  DNSKEY 257 3 8 ( ${KSK.slice(0, 60)}
                             ${KSK.slice(60)} )
@       IN  DNSKEY 256 3 8 ${ZSK}
@       IN  CDNSKEY 257 3 8 ${KSK}
@       IN  CDS   31967 8 2 ${DS_DIGEST}
@       IN  RRSIG A 8 2 300 20300101000000 20240101000000 31967 types.test. dGVzdHNpZ25hdHVyZQ==
@       IN  RRSIG TXT 8 2 300 2524608000 1704067200 38353 types.test. c2lnbmF0dXJlLXR4dA==
@       IN  NSEC  alias.types.test. A NS SOA MX TXT AAAA RRSIG NSEC DNSKEY CAA HTTPS TYPE65534
h9p7u7tr2u91d0v0ljs9l1gidnp90u3h IN NSEC3 1 1 12 aabbccdd ( 2t7b4g4vsa5smi47k61mv5bv1a22bojr
                                   A RRSIG )
nosalt  IN  NSEC3 1 0 0 - 2t7b4g4vsa5smi47k61mv5bv1a22bojr
@       IN  NSEC3PARAM 1 0 12 aabbccdd
_443._tcp.www IN TLSA 3 1 1 ${TLSA_DATA}
_smimecert IN SMIMEA 3 0 1 ${TLSA_DATA}
@       IN  HTTPS 1 . alpn="h2,h3" ipv4hint=192.0.2.1,192.0.2.2 ipv6hint=2001:db8::1 port=8443 ech=AEX+DQ== mandatory=alpn,port
svc     IN  SVCB  0 pool.svc.types.test.
svc2    IN  SVCB  16 pool key65333=ex1 no-default-alpn alpn=h2 dohpath=/dns-query{?dns} ohttp
@       IN  SSHFP 4 2 ${SSHFP_FP}
@       IN  HINFO "PDP-11" "UNIX"
naptr   IN  NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp
@       IN  ZONEMD 2024010101 1 1 ( ${ZONEMD_DIGEST.slice(0, 48)}
                                   ${ZONEMD_DIGEST.slice(48)} )
uri     IN  URI   10 1 "https://types.test/"
@       IN  TYPE65534 \\# 4 deadbeef
*.wild  IN  A     192.0.2.200
*.wild  IN  RRSIG A 8 3 300 20300101000000 20240101000000 38353 types.test. d2lsZA==
a.b.ent IN  A     192.0.2.7
sub     IN  NS    ns.sub
sub     IN  DS    31967 8 2 ${DS_DIGEST}
ns.sub  IN  A     192.0.2.99
deep.sub IN A     192.0.2.98
`
