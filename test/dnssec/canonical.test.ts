import { describe, expect, it } from 'vitest'
import { encodeName } from '../../runtime/net/dns/dns-name.ts'
import type { RrsigRecord } from '../../runtime/net/dns/dns-records.ts'
import { canonicalRdata, signedData, signedOwner, wireOrThrow } from '../../plugins/dnssec/canonical.ts'
import { commonAncestor, compareNames, isAtOrBelow, isBelow, nameFromWire, nameOf, namesBetween, parentOf, rrsigLabelCount, suffixOf } from '../../plugins/dnssec/names.ts'
import { decodedRecords } from '../support/dnssec-records.ts'

describe('names', () => {
  it('sort in the canonical order of RFC 4034 §6.1 (its own example list)', () => {
    const ordered = ['example', 'a.example', 'yljkjljk.a.example', 'Z.a.example', 'zABC.a.EXAMPLE', 'z.example', '\\001.z.example', '*.z.example', '\\200.z.example']
    const shuffled = [...ordered].reverse()
    const names = shuffled.map((t) => nameFromWire(encodeName(t)))
    names.sort(compareNames)
    expect(names.map((n) => n.text)).toEqual(ordered.map((t) => nameOf(t).text))
  })

  it('ancestors, suffixes and the names between an anchor and a name', () => {
    const n = nameOf('WWW.Example.TEST.')
    expect(n.text).toBe('www.example.test')
    expect(parentOf(n).text).toBe('example.test')
    expect(parentOf(nameOf('.')).text).toBe('.')
    expect(suffixOf(n, 1).text).toBe('test')
    expect(suffixOf(n, 0).text).toBe('.')
    expect(namesBetween(nameOf('.'), n).map((x) => x.text)).toEqual(['test', 'example.test', 'www.example.test'])
    expect(namesBetween(nameOf('example.test'), n).map((x) => x.text)).toEqual(['www.example.test'])
    expect(isAtOrBelow(n, nameOf('test'))).toBe(true)
    expect(isAtOrBelow(nameOf('notexample.test'), nameOf('example.test'))).toBe(false)
    expect(isBelow(n, n)).toBe(false)
    expect(commonAncestor(nameOf('a.b.example'), nameOf('c.b.example')).text).toBe('b.example')
  })

  it('count RRSIG labels without a leading wildcard (RFC 4034 §3.1.3)', () => {
    expect(rrsigLabelCount(nameOf('*.w.example'))).toBe(2)
    expect(rrsigLabelCount(nameOf('x.w.example'))).toBe(3)
    expect(rrsigLabelCount(nameOf('.'))).toBe(0)
    expect(signedOwner(nameOf('a.z.w.example'), 2).text).toBe('*.w.example')
    expect(signedOwner(nameOf('x.w.example'), 3).text).toBe('x.w.example')
  })
})

describe('canonical RDATA (RFC 4034 §6.2, RFC 6840 §5.1)', () => {
  const rdataOf = (text: string) => wireOrThrow(decodedRecords(text)[0]!)

  it('lowercases the names inside MX, NS, SOA, SRV, RRSIG RDATA', () => {
    for (const [text, lower] of [
      ['x. 1 IN MX 10 MAIL.Example.', 'x. 1 IN MX 10 mail.example.'],
      ['x. 1 IN NS NS1.EXAMPLE.', 'x. 1 IN NS ns1.example.'],
      ['x. 1 IN SOA NS.EX. Host.EX. 1 2 3 4 5', 'x. 1 IN SOA ns.ex. host.ex. 1 2 3 4 5'],
      ['x. 1 IN SRV 1 2 3 Target.EX.', 'x. 1 IN SRV 1 2 3 target.ex.'],
    ]) {
      const wire = rdataOf(text as string)
      expect(canonicalRdata(wire.typeCode, wire.rdata)).toEqual(rdataOf(lower as string).rdata)
    }
  })

  it('leaves NSEC next names and TXT data as they are', () => {
    const nsec = rdataOf('x. 1 IN NSEC NEXT.Example. A RRSIG')
    expect(canonicalRdata(nsec.typeCode, nsec.rdata)).toEqual(nsec.rdata)
    const txt = rdataOf('x. 1 IN TXT "MiXeD"')
    expect(canonicalRdata(txt.typeCode, txt.rdata)).toEqual(txt.rdata)
  })

  it('signs RRs sorted by RDATA, duplicates once, with the original TTL and the wildcard owner', () => {
    const records = decodedRecords(`
a.z.w.example. 60 IN A 192.0.2.3
a.z.w.example. 60 IN A 192.0.2.1
a.z.w.example. 60 IN A 192.0.2.3
a.z.w.example. 60 IN RRSIG A 8 2 3600 20300101000000 20000101000000 1 example. AAAA`)
    const rrsig = records.find((r): r is RrsigRecord => r.type === 'RRSIG')!
    const data = signedData(wireOrThrow(rrsig).rdata, nameOf('a.z.w.example'), records.filter((r) => r.type === 'A'))
    const prefix = wireOrThrow(rrsig).rdata.subarray(0, 18 + encodeName('example').length)
    const owner = encodeName('*.w.example')
    const rr = (last: number) => Buffer.concat([owner, Buffer.from([0, 1, 0, 1, 0, 0, 0x0e, 0x10, 0, 4, 192, 0, 2, last])])
    expect(data).toEqual(Buffer.concat([prefix, rr(1), rr(3)]))
  })
})
