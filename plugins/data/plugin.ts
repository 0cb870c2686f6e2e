import { isIP } from 'node:net'
import { definePlugin } from '../../runtime/define-plugin.ts'
import bogons from '../../registry/data/bogons.ts'
import dnsRecordTypes from '../../registry/data/dns-record-types.ts'
import httpStatusCodes from '../../registry/data/http-status-codes.ts'
import ports from '../../registry/data/ports.ts'
import resolvers from '../../registry/data/resolvers.ts'
import tlds from '../../registry/data/tlds.ts'
import { BOGON_SOURCES, bogonPrefixes } from './bogons.ts'
import { DNS_TYPES, DNS_TYPES_SOURCE, DNS_TYPE_RANGES } from './dns-record-types-data.ts'
import { HTTP_STATUS_SOURCE, httpStatusCodes as statusRows } from './http-status-data.ts'
import type { PortTable } from './ports.ts'
import { filterPorts, loadPortTable } from './ports.ts'
import type { TldTable } from './tlds.ts'
import { CLASSIFICATION_RULES, buildTldTable } from './tlds.ts'

/** Builds a table on first use and keeps it: tables are static for the life of the process. */
function once<T>(build: () => T): () => T {
  let value: T | undefined
  return () => (value ??= build())
}

export default definePlugin({
  name: 'data',
  setup(api) {
    const bogonTable = once(() => {
      const prefixes = bogonPrefixes()
      return {
        sources: BOGON_SOURCES.map((s) => ({ ...s, notes: [...s.notes] })),
        counts: {
          ipv4: prefixes.filter((p) => p.version === 4).length,
          ipv6: prefixes.filter((p) => p.version === 6).length,
          bogon: prefixes.filter((p) => p.bogon === true).length,
        },
        prefixes,
      }
    })
    api.resolve(bogons, () => bogonTable())

    const dnsTypes = once(() => ({
      source: { ...DNS_TYPES_SOURCE, notes: [...DNS_TYPES_SOURCE.notes] },
      count: DNS_TYPES.length,
      types: DNS_TYPES.map((t) => ({ ...t, references: [...t.references] })),
      ranges: DNS_TYPE_RANGES.map((r) => ({ ...r })),
    }))
    api.resolve(dnsRecordTypes, () => dnsTypes())

    const statuses = once(() => {
      const codes = statusRows()
      return { source: { ...HTTP_STATUS_SOURCE, notes: [...HTTP_STATUS_SOURCE.notes] }, count: codes.length, codes }
    })
    api.resolve(httpStatusCodes, () => statuses())

    const portTable = once((): PortTable => loadPortTable())
    api.resolve(ports, ({ port, service, protocol }) => {
      const table = portTable()
      const rows = filterPorts(table.ports, { port, service, protocol })
      return { source: table.source, count: rows.length, ports: rows }
    })

    const tldTable = once((): TldTable => buildTldTable())
    api.resolve(tlds, ({ type }) => {
      const table = tldTable()
      const rows = type === undefined ? table.rows : table.rows.filter((r) => r.type === type)
      const counts: Record<string, number> = {}
      for (const r of table.rows) counts[r.type] = (counts[r.type] ?? 0) + 1
      return {
        sources: [
          {
            name: 'Public Suffix List, as bundled in tldts',
            url: 'https://publicsuffix.org/list/public_suffix_list.dat',
            version: `tldts ${table.tldtsVersion}`,
            licence: 'MPL-2.0',
            notes: ['the top-level labels of the PSL rules (ICANN and private sections)'],
          },
          {
            name: 'IANA list of top-level domains in the root zone',
            url: 'https://data.iana.org/TLD/tlds-alpha-by-domain.txt',
            version: table.ianaVersion,
            licence: null,
            notes: ['bundled copy (plugins/data/files/iana-tlds-alpha-by-domain.txt); decides in_root_zone'],
          },
          {
            name: 'IANA Root Zone Database (types)',
            url: 'https://www.iana.org/domains/root/db',
            version: null,
            licence: null,
            notes: ['types are assigned by the rules in `classification`, not read from the database'],
          },
        ],
        classification: [...CLASSIFICATION_RULES],
        counts,
        tlds: rows,
      }
    })

    api.resolve(resolvers, (_input, ctx) => {
      const list = ctx.config.propagationResolvers.map((r) => ({
        name: r.name ?? r.host,
        address: r.host,
        port: r.port,
        version: isIP(r.host) === 6 ? (6 as const) : (4 as const),
      }))
      return {
        source: {
          name: 'INFRALENS_PROPAGATION_RESOLVERS',
          url: null,
          version: null,
          licence: null,
          notes: ['the resolvers /api/dns/propagation queries: this deployment\'s configuration, or the built-in public list when it is unset'],
        },
        count: list.length,
        resolvers: list,
      }
    })
  },
})
