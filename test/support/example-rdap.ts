import type { FakeRdap } from './fake-rdap.ts'

// The registration of example.net as the loopback internet's RDAP serves it, so
// the report example (/api/report/example.net, the site of fake-web.ts) has a
// registration area. Test data, not a recording: shaped like Verisign's answer
// for the IANA-reserved name, with an expiry that stays ahead of the clock.

const DAY = 86_400_000

export function exampleNetRdap(now: number): Record<string, unknown> {
  const vcard = (fn: string) => ['vcard', [['version', {}, 'text', '4.0'], ['fn', {}, 'text', fn]]]
  return {
    objectClassName: 'domain',
    handle: '2336799_DOMAIN_NET-VRSN',
    ldhName: 'EXAMPLE.NET',
    status: ['client delete prohibited', 'client transfer prohibited', 'client update prohibited'],
    entities: [
      {
        objectClassName: 'entity',
        handle: '376',
        roles: ['registrar'],
        publicIds: [{ type: 'IANA Registrar ID', identifier: '376' }],
        vcardArray: vcard('RESERVED-Internet Assigned Numbers Authority'),
      },
    ],
    events: [
      { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
      { eventAction: 'expiration', eventDate: new Date(now + 200 * DAY).toISOString().replace(/\.\d+Z$/, 'Z') },
    ],
    secureDNS: { delegationSigned: false },
    nameservers: [
      { objectClassName: 'nameserver', ldhName: 'A.IANA-SERVERS.NET' },
      { objectClassName: 'nameserver', ldhName: 'B.IANA-SERVERS.NET' },
    ],
    rdapConformance: ['rdap_level_0'],
  }
}

/** Registers example.net with the fake at Verisign's .net path (the bootstrap's registry for .net). */
export function serveExampleRdap(rdap: FakeRdap, now: number): void {
  rdap.serve('/rdap.verisign.com/net/v1/domain/example.net', exampleNetRdap(now))
}
