import ipaddr from 'ipaddr.js'
import { Bench } from 'tinybench'
import { analyzeCidr } from '../plugins/network/cidr/analyze.ts'
import { bogonCheck } from '../runtime/ip/bogon.ts'
import { expandCidr } from '../plugins/network/cidr/expand.ts'
import { formatIpv6 } from '../runtime/ip/format.ts'
import type { Cidr, IpAddress } from '../runtime/ip/ip-types.ts'
import { parseCidr } from '../runtime/ip/parse-cidr.ts'
import { scanIpv4 } from '../runtime/ip/parse-ipv4.ts'
import { parseIp } from '../runtime/ip/parse.ts'
import { classify } from '../runtime/ip/special-purpose.ts'
import { random } from './random-prefixes.ts'

// npx tsx bench/ip.bench.ts
//
// Per-call costs of the IP library's single-address paths (what /api/ip,
// /api/cidr/analyze and /api/cidr/expand do per request), and the measurement
// behind the address representation: IPv4 as a uint32 number (scanIpv4) vs the
// public bigint shape (parseIp), with ipaddr.js (a dependency) for reference.

const next = random(7)
const N = 1024
const v4Texts = Array.from({ length: N }, () => {
  const a = next()
  return `${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}`
})
const v6Values = Array.from({ length: N }, () => (BigInt(next()) << 96n) | (BigInt(next()) << 64n) | BigInt(next() & 0xffff))
const v6Texts = v6Values.map((v) => formatIpv6(v))

function must<T>(r: { ok: true; value: T } | { ok: false; error: { reason: string } }): T {
  if (!r.ok) throw new Error(r.error.reason)
  return r.value
}
const v4Addrs: IpAddress[] = v4Texts.map((t) => must(parseIp(t)))
const v6Addrs: IpAddress[] = v6Texts.map((t) => must(parseIp(t)))
const cidr24: Cidr = must(parseCidr('192.168.1.77/24'))
const cidr64: Cidr = must(parseCidr('2001:db8:1234:5678::/64'))
const all6: Cidr = must(parseCidr('::/0'))

let i = 0
let sink = 0
const bench = new Bench({ time: 700, warmup: true })
bench
  .add('scanIpv4 -> uint32 (number)', () => {
    const t = v4Texts[i++ & (N - 1)] as string
    sink += scanIpv4(t, 0, t.length)
  })
  .add('parseIp IPv4 -> bigint', () => {
    const r = parseIp(v4Texts[i++ & (N - 1)] as string)
    if (r.ok) sink += r.value.version
  })
  .add('ipaddr.js IPv4.parse (lenient)', () => {
    sink += ipaddr.IPv4.parse(v4Texts[i++ & (N - 1)] as string).octets[0] ?? 0
  })
  .add('parseIp IPv6', () => {
    const r = parseIp(v6Texts[i++ & (N - 1)] as string)
    if (r.ok) sink += r.value.version
  })
  .add('ipaddr.js IPv6.parse', () => {
    sink += ipaddr.IPv6.parse(v6Texts[i++ & (N - 1)] as string).parts[0] ?? 0
  })
  .add('formatIpv6 (RFC 5952)', () => {
    sink += formatIpv6(v6Values[i++ & (N - 1)] as bigint).length
  })
  .add('ipaddr.js IPv6.parse + toRFC5952String', () => {
    sink += ipaddr.IPv6.parse(v6Texts[i++ & (N - 1)] as string).toRFC5952String().length
  })
  .add('parseCidr IPv4', () => {
    sink += parseCidr('192.168.1.77/24').ok ? 1 : 0
  })
  .add('analyzeCidr IPv4 /24', () => {
    sink += analyzeCidr(cidr24).prefixLength
  })
  .add('analyzeCidr IPv6 /64', () => {
    sink += analyzeCidr(cidr64).prefixLength
  })
  .add('expandCidr ::/0 page of 256 at 2^100', () => {
    const r = expandCidr(all6, 1n << 100n, 256)
    if (r.ok) sink += r.value.addresses.length
  })
  .add('classify IPv4', () => {
    sink += classify(v4Addrs[i++ & (N - 1)] as IpAddress).class.length
  })
  .add('bogonCheck IPv4', () => {
    sink += bogonCheck(v4Addrs[i++ & (N - 1)] as IpAddress).bogon ? 1 : 0
  })
  .add('bogonCheck IPv6', () => {
    sink += bogonCheck(v6Addrs[i++ & (N - 1)] as IpAddress).bogon ? 1 : 0
  })

await bench.run()
const rows = bench.tasks.map((t) => {
  const r = t.result
  if (r.state !== 'completed') return { task: t.name, state: r.state }
  return {
    task: t.name,
    'ops/s': Math.round(r.throughput.mean).toLocaleString('en-US'),
    'mean ns': Math.round(r.latency.mean * 1e6),
    'p99 ns': Math.round((r.latency.p99 ?? 0) * 1e6),
  }
})
console.table(rows)
if (sink === 0.5) console.log(sink)
