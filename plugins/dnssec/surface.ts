// What the dnssec plugin offers other plugins: the one file of plugins/dnssec/
// another plugin may import, and only when it names "dnssec" in its `dependencies`
// (test/architecture/layers.test.ts). Re-exports, the sanctioned exception to
// "no barrels".

/** Does a DS name this DNSKEY (key tag, algorithm and digest)? (delegation's parent-DS check) */
export { dsMatchesKey } from './ds-digest.ts'
export { nameOf } from './names.ts'
