// RCODEs by which a resolver declines to serve the service, as opposed to telling it
// something about the name: REFUSED ("for policy reasons", RFC 1035 §4.1.1), NOTIMP
// (the query kind is not supported) and FORMERR (it could not parse our query). They
// say the resolver is misconfigured or unwilling, so they count as that resolver failing.
//
// SERVFAIL is not one of them. A recursive resolver answers SERVFAIL when resolving
// that name failed: broken delegation, unreachable authorities, or DNSSEC data that
// does not validate (RFC 4035 §5.5); RFC 2308 §7.1 caches it per name, type and class,
// and RFC 8914 extended errors say which cause. It is an observation about the domain
// as seen through that resolver, so it is an answer (status "servfail", and in
// propagation a group of its own: validating resolvers failing where others answer is
// exactly the split a propagation check should show).

const REFUSALS: ReadonlySet<string> = new Set(['REFUSED', 'NOTIMP', 'FORMERR'])

export function isResolverRefusal(rcode: string): boolean {
  return REFUSALS.has(rcode)
}
