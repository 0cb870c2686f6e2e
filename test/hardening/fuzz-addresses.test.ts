import { isIP } from 'node:net'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseIp } from '../../runtime/ip/parse.ts'
import { formatIp } from '../../runtime/ip/format.ts'
import { DNSBL_ZONES } from '../support/dnsbl-zones.ts'
import { RDAP_ZONES } from '../support/fake-rdap.ts'
import { DEFAULT_ZONES } from '../support/loopback-dns.ts'
import { address, addressWithPort, cidr, host, ipv4Odd, ipv4Readings, isSafeAddress, publicAddressesIn, url, WORLD_NAMES } from './fuzz-addresses.ts'
import { documentedZoneText } from './fuzz-zones.ts'
import { inWorld } from './fuzz-cases.ts'

// The fuzzer's promise (issue 18): every address it sends is loopback or
// documentation, in every spelling and under every reading, and every name
// resolves (if at all) to such addresses in its world. These check the
// generators against parsers other than the fuzzer's own check: WHATWG URL
// hosts (what fetch and the web endpoints read), the service's own parseIp, and
// Node's isIP; and the check itself against spellings known to be public.

const RUNS = 3000

/** The host a WHATWG URL parser makes of `text` as an authority, or undefined. */
function urlHost(text: string): string | undefined {
  try {
    return new URL(`http://${text}/`).hostname.replace(/^\[(.*)\]$/, '$1')
  } catch {
    return undefined
  }
}

describe('the address arbitraries', () => {
  it('never make a spelling that reads as a public address', () => {
    fc.assert(
      fc.property(fc.oneof(address, addressWithPort, cidr, host, url), (text) => {
        expect(publicAddressesIn(text)).toEqual([])
      }),
      { numRuns: RUNS },
    )
  })

  it('odd IPv4 spellings are safe to WHATWG URL, to the service\'s parser and to inet_aton\'s readings', () => {
    fc.assert(
      fc.property(ipv4Odd, (text) => {
        const hostname = urlHost(text)
        if (hostname !== undefined && isIP(hostname)) expect(isSafeAddress(hostname), `${text} -> ${hostname}`).toBe(true)
        const parsed = parseIp(text)
        if (parsed.ok) expect(isSafeAddress(formatIp(parsed.value)), `${text} parsed as ${formatIp(parsed.value)}`).toBe(true)
      }),
      { numRuns: RUNS },
    )
  })

  it('every spelling the URL parser reads as an address is a safe one', () => {
    fc.assert(
      fc.property(fc.oneof(address, addressWithPort, host), (text) => {
        const hostname = urlHost(text)
        if (hostname !== undefined && isIP(hostname)) expect(isSafeAddress(hostname), `${text} -> ${hostname}`).toBe(true)
      }),
      { numRuns: RUNS },
    )
  })

  it('the check catches public addresses however they are spelled', () => {
    for (const text of ['8.8.8.8', '1.1', '16777217', '0x08080808', '010.010.010.010', '0177.0.0.1', '%38.8.8.8', '%2538.8.8.8', '８.８.８.８', '8。8。8。8', '::ffff:8.8.8.8', '2606:4700::1111', 'http://[2001:4860::8888]/', '::1:8443', '10.0.0.1', '169.254.169.254', '192.168.1.77/24', 'q=1.0']) {
      expect(publicAddressesIn(text), text).not.toEqual([])
    }
    for (const text of ['127.0.0.1', '127.1', '0x7f.1', '2130706433', '0300.0.2.1', '192.0.513', '[::1]:8443', '2001:db8::192.0.2.1', '::ffff:127.0.0.1', 'a.b.2.0.0.127.zen.spamhaus.org', '5', 'limit=1000', 'AS13335', '10.0.0.300', '1e309', 'sha512-256']) {
      expect(publicAddressesIn(text), text).toEqual([])
    }
  })

  it('inet_aton readings: octal, hex, short forms, and decimal readings of octal-looking parts', () => {
    expect(ipv4Readings('127.1')).toContain(0x7f000001)
    expect(ipv4Readings('0177.0.0.1').sort()).toEqual([0x7f000001, 177 * 2 ** 24 + 1].sort())
    expect(ipv4Readings('0x7f.0.0.1')).toEqual([0x7f000001])
    expect(ipv4Readings('256.0.0.1')).toEqual([])
  })
})

describe('the fuzzer\'s world', () => {
  it('its zones name only loopback and documentation addresses', () => {
    for (const zone of [...DEFAULT_ZONES, ...RDAP_ZONES, ...DNSBL_ZONES]) {
      if (typeof zone !== 'string') continue
      for (const [, address] of documentedZoneText(zone).matchAll(/\bIN\s+(?:\d+\s+)?(?:A|AAAA)\s+(\S+)/gi)) expect(isSafeAddress(address!), address).toBe(true)
    }
  })

  it('the shared zones do name public addresses (what the rewrite is for)', () => {
    const all = [...DEFAULT_ZONES, ...RDAP_ZONES].filter((z): z is string => typeof z === 'string').join('\n')
    expect(all).toContain('93.184.215.14')
    expect(documentedZoneText(all)).not.toContain('93.184.215.14')
  })

  it('its world names and the descriptors\' examples, as it sends them, name no public address', () => {
    for (const name of WORLD_NAMES) expect(publicAddressesIn(name), name).toEqual([])
    for (const value of ['8.8.8.8', '1.1.1.1', '193.0.0.0/21', '192.168.1.77/24']) expect(publicAddressesIn(inWorld(value)), value).toEqual([])
  })
})
