import { startDnsServer } from '../test/support/dns-server.ts'
const ZONE = `
$ORIGIN infralens.test.
$TTL 86400
@    IN SOA ns1 hostmaster ( 1 3600 900 604800 3600 )
@    IN NS  ns1
ns1  IN A   192.0.2.53
@    IN A   192.0.2.10
@    IN A   192.0.2.11
www  IN CNAME @
`
const dns = await startDnsServer({ host: '127.0.0.2', zones: [ZONE] })
console.log(`${dns.host}:${dns.port}`)
setInterval(() => {}, 1 << 30)
