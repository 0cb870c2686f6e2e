// What the network plugin offers other plugins: the one file of plugins/network/
// another plugin may import, and only when it names "network" in its
// `dependencies` (test/architecture/layers.test.ts). Re-exports, the sanctioned
// exception to "no barrels". The loader itself is shared as the `ipData` upstream.

/** The offline IP -> ASN / country data sets (routing reads them through ctx.upstreams.ipData). */
export type { IpDataSets } from './ip-data.ts'

/** One address of a bulk lookup from those data sets (routing answers /api/ip/bulk with it, adding RPKI). */
export { defineBulkLookup } from './bulk-lookup.ts'
export type { BulkResult, RouteJudge } from './bulk-lookup.ts'
