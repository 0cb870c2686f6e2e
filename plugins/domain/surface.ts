// What the domain plugin offers other plugins: the one file of plugins/domain/
// another plugin may import, and only when it names "domain" in its `dependencies`
// (test/architecture/layers.test.ts). Re-exports, the sanctioned exception to
// "no barrels".

/** All name servers in one AS, or in one /24 (/48)? (delegation's diversity findings, as dependencies decides them) */
export type { Concentration, PlacedAddress } from './dependencies/concentration.ts'
export { blockOf, concentration } from './dependencies/concentration.ts'
