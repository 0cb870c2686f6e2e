import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { addressSortKey } from '../../runtime/address-sort-key.ts'
import { ipv4Documentation } from '../hardening/fuzz-addresses.ts'
import type { Controls } from '../../runtime/controls.ts'
import { shape } from '../../runtime/shape.ts'
import { compileFieldTree } from '../../runtime/field-tree.ts'
import { z } from 'zod'

// sort= over IP addresses and prefixes: address order (family, address bytes,
// prefix length), decided per list by the shaping code for any endpoint; other
// values keep the natural text order.

const controls = (sort: string, order: 'asc' | 'desc' = 'asc'): Controls => ({
  format: 'json',
  pretty: false,
  fields: undefined,
  exclude: undefined,
  includeMeta: true,
  includeLinks: false,
  sort: sort.split('.'),
  order,
  limit: undefined,
  offset: 0,
})

const sortBy = (values: unknown[], order: 'asc' | 'desc' = 'asc', key = 'prefix') => {
  const { data } = shape({ items: values.map((v) => (v === undefined ? {} : { [key]: v })) }, [['items']], controls(key, order))
  return (data as { items: Array<Record<string, unknown>> }).items.map((i) => i[key])
}

describe('sort by an IP/CIDR-valued key', () => {
  it('orders by family, then address, then prefix length: not as text', () => {
    const input = ['2a00::/12', '10.0.0.0/8', '9.0.0.0/8', '2001:db8::/32', '1.0.0.0/24', '10.0.0.0/16', '9.255.0.0/16', '2001:db8:a::/48', '2001:db8:10::/48']
    expect(sortBy(input)).toEqual(['1.0.0.0/24', '9.0.0.0/8', '9.255.0.0/16', '10.0.0.0/8', '10.0.0.0/16', '2001:db8::/32', '2001:db8:a::/48', '2001:db8:10::/48', '2a00::/12'])
    expect(sortBy(input, 'desc')).toEqual(['2a00::/12', '2001:db8:10::/48', '2001:db8:a::/48', '2001:db8::/32', '10.0.0.0/16', '10.0.0.0/8', '9.255.0.0/16', '9.0.0.0/8', '1.0.0.0/24'])
  })

  it('bare addresses sort with prefixes (as /32, /128); hex groups by value, not by letters', () => {
    expect(sortBy(['10.0.0.1', '9.20.30.40', '10.0.0.0/31', 'fe80::1', '::ffff:1.2.3.4', '2001:db8::ff', '2001:db8::f0', '2001:db8::1:0'])).toEqual([
      '9.20.30.40',
      '10.0.0.0/31',
      '10.0.0.1',
      '::ffff:1.2.3.4',
      '2001:db8::f0',
      '2001:db8::ff',
      '2001:db8::1:0',
      'fe80::1',
    ])
  })

  it('items without the key still go last, in both directions; ties keep their input order', () => {
    const { data } = shape({ items: [{ id: 1, ip: '10.0.0.0/8' }, { id: 2 }, { id: 3, ip: '9.0.0.0/8' }, { id: 4, ip: '10.0.0.0/8' }] }, [['items']], controls('ip', 'desc'))
    expect((data as { items: Array<{ id: number }> }).items.map((i) => i.id)).toEqual([1, 4, 3, 2])
    expect(sortBy(['10.0.0.0/8', undefined, '9.0.0.0/8'])).toEqual(['9.0.0.0/8', '10.0.0.0/8', undefined])
  })

  it('a list that is not all addresses keeps the natural text order', () => {
    expect(sortBy(['host10', 'host9', '10.0.0.0/8'], 'asc', 'name')).toEqual(['10.0.0.0/8', 'host9', 'host10'])
    expect(sortBy(['10.0.0.0/8', '9.0.0.0/8', 'not an address'])).toEqual(['9.0.0.0/8', '10.0.0.0/8', 'not an address'])
    // numbers stay numbers
    expect(sortBy([10, 9, 100], 'asc', 'asn')).toEqual([9, 10, 100])
    // text that only looks numeric is not an address (strict dotted quads, lengths 0-32/0-128)
    expect(addressSortKey('010.0.0.0/8')).toBeNull()
    expect(addressSortKey('10.0.0/8')).toBeNull()
    expect(addressSortKey('10.0.0.0/33')).toBeNull()
    expect(addressSortKey('10.0.0.0/08')).toBeNull()
    expect(addressSortKey('2001:db8::/129')).toBeNull()
  })

  it('property: the order is (family, address as a number, length) for random IPv4/IPv6 prefixes', () => {
    // Strict dotted quads from 10/8 and 127/8 (24 free bits each) and the documentation
    // blocks: first octets that differ and hosts that do, never a public address.
    const quad = fc.integer({ min: 0, max: 255 })
    const ipv4 = fc.oneof(fc.tuple(fc.constantFrom(10, 127), quad, quad, quad).map((o) => o.join('.')), ipv4Documentation)
    const v4 = fc.tuple(ipv4, fc.integer({ min: 0, max: 32 })).map(([a, l]) => ({ text: `${a}/${l}`, family: 4, value: a.split('.').reduce((n, o) => n * 256n + BigInt(o), 0n), len: l }))
    // 2001:db8::/32, a unique-local /32 and ::/32 ahead of six random groups.
    const head = fc.constantFrom([0x2001, 0xdb8], [0xfd12, 0x3456], [0, 0])
    const tail = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 6, maxLength: 6 })
    const v6 = fc.tuple(fc.tuple(head, tail).map(([h, t]) => [...h, ...t]), fc.integer({ min: 0, max: 128 })).map(([groups, l]) => ({
      text: `${groups.map((g) => g.toString(16)).join(':')}/${l}`,
      family: 6,
      value: groups.reduce((n, g) => n * 65536n + BigInt(g), 0n),
      len: l,
    }))
    fc.assert(
      fc.property(fc.array(fc.oneof(v4, v6), { minLength: 1, maxLength: 40 }), (prefixes) => {
        const want = [...prefixes].sort((a, b) => a.family - b.family || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0) || a.len - b.len).map((p) => p.text)
        const got = sortBy(prefixes.map((p) => p.text)) as string[]
        // equal keys may be spelled differently only if they are the same prefix: compare by key
        expect(got.map(addressSortKey)).toEqual(want.map(addressSortKey))
      }),
      { numRuns: 300 },
    )
  })
})

describe('sort= over several lists, some of them empty', () => {
  // The shape of /api/network/route-origin for an unannounced prefix: no origins, one finding.
  const schema = z.object({
    origins: z.array(z.object({ asn: z.number(), as_name: z.string() })),
    findings: z.array(z.object({ id: z.string(), severity: z.string() })),
  })
  const fields = compileFieldTree(schema)
  const lists = [['origins'], ['findings']]
  const data = { origins: [], findings: [{ id: 'route_origin.unannounced', severity: 'info' }] }

  it('a key the schema gives an empty list\'s items sorts nothing and is no error', () => {
    expect(shape(data, lists, controls('as_name'), fields).data).toEqual(data)
    expect(shape(data, lists, controls('severity', 'desc'), fields).data).toEqual(data)
  })

  it('a key no list has, in the data or the schema, is still a 400 naming the sortable fields', () => {
    expect(() => shape(data, lists, controls('asname'), fields)).toThrow(/Cannot sort by "asname": no item has that field\. Sortable fields: id, severity\./)
    // Without the schema (a caller that has none), the data alone decides, as before.
    expect(() => shape(data, lists, controls('as_name'))).toThrow(/Cannot sort by "as_name"/)
  })
})
