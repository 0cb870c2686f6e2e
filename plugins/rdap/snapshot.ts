import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { BootstrapKind, BootstrapTable } from './bootstrap.ts'
import { parseBootstrap } from './bootstrap.ts'

// The bundled copies of the IANA bootstrap files, used when data.iana.org (or the
// configured INFRALENS_RDAP_BOOTSTRAP_URL) cannot be fetched. The file names carry
// each file's own "publication" date; refresh them from https://data.iana.org/rdap/
// now and then (RIR blocks move rarely, new gTLDs appear often). These copies are
// recorded IANA responses (see ../shared/fixtures/SOURCES.md: dns/ipv4/ipv6 from
// meeb/whoisit's test recordings, asn from 20c/rdap), not fetched at build time.

export const SNAPSHOT_FILES: Readonly<Record<BootstrapKind, string>> = {
  dns: 'dns.2024-07-25.json',
  ipv4: 'ipv4.2019-06-07.json',
  ipv6: 'ipv6.2019-11-06.json',
  asn: 'asn.2025-01-17.json',
}

const cache = new Map<BootstrapKind, BootstrapTable>()

export function snapshotTable(kind: BootstrapKind): BootstrapTable {
  let table = cache.get(kind)
  if (!table) {
    const file = fileURLToPath(new URL(`./snapshot/${SNAPSHOT_FILES[kind]}`, import.meta.url))
    table = parseBootstrap(kind, JSON.parse(readFileSync(file, 'utf8')) as unknown)
    cache.set(kind, table)
  }
  return table
}
