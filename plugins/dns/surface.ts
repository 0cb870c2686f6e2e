// What the dns plugin offers other plugins: the one file of plugins/dns/ another
// plugin may import, and only when it names "dns" in its `dependencies`
// (test/architecture/layers.test.ts). Re-exports, the sanctioned exception to
// "no barrels": the rest of the folder may change without asking anyone.

/** A record as answers show it (dnssec presents the records it validated so). */
export { presentRecord } from './present-record.ts'
/** One name's records of one type, CNAME chain followed (domain asks for its signals). */
export type { RecordsAnswer } from './resolve-records.ts'
export { cacheTtlOf, resolveRecords } from './resolve-records.ts'
/** PTR names of an address, forward-confirmed (routing's IP intelligence). */
export { reverseDns } from './reverse-dns.ts'
