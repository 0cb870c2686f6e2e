import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { z } from 'zod'
import type { PortsData, SourceData } from '../../registry/data/schemas/data-schemas.ts'

type PortRow = z.input<typeof PortsData>['ports'][number]

export const SYSTEM_SERVICES = '/etc/services'

/**
 * A copy of Debian netbase 6.4's /etc/services (GPL-2; itself kept in step with
 * the IANA Service Name and Transport Protocol Port Number Registry), so the
 * table exists on hosts without the file (containers, macOS paths aside).
 */
export const BUNDLED_SERVICES = join(import.meta.dirname, 'files', 'netbase-6.4-services')

export interface PortTable {
  source: z.input<typeof SourceData>
  ports: PortRow[]
}

/**
 * services(5) lines, `name port/protocol [aliases...] [# comment]`, as one row per
 * (service, port) with the protocols it is registered for.
 */
export function parseServices(text: string): PortRow[] {
  const rows = new Map<string, PortRow>()
  for (const raw of text.split('\n')) {
    const hash = raw.indexOf('#')
    const comment = hash >= 0 ? raw.slice(hash + 1).trim() : ''
    const fields = (hash >= 0 ? raw.slice(0, hash) : raw).trim().split(/\s+/)
    if (fields.length < 2 || fields[0] === '') continue
    const [service, portProto, ...aliases] = fields as [string, string, ...string[]]
    const m = /^(\d{1,5})\/([a-z0-9]+)$/i.exec(portProto)
    if (!m || Number(m[1]) > 65_535) continue
    const port = Number(m[1])
    const protocol = (m[2] as string).toLowerCase()
    const key = `${service}\u0000${port}`
    const row = rows.get(key)
    if (row) {
      if (!row.protocols.includes(protocol)) row.protocols.push(protocol)
      for (const a of aliases) if (!row.aliases.includes(a)) row.aliases.push(a)
      row.description ??= comment || null
    } else {
      rows.set(key, { service, port, protocols: [protocol], aliases, description: comment || null })
    }
  }
  return [...rows.values()].sort((a, b) => a.port - b.port || a.service.localeCompare(b.service))
}

/** The system's table when it has one (what local tools agree with), else the bundled copy. */
export function loadPortTable(systemPath = SYSTEM_SERVICES): PortTable {
  if (existsSync(systemPath)) {
    return {
      source: {
        name: `${systemPath} of this host`,
        url: null,
        version: null,
        licence: null,
        notes: ['the host system\'s services(5) database; where it is missing the service uses its bundled Debian netbase 6.4 copy'],
      },
      ports: parseServices(readFileSync(systemPath, 'utf8')),
    }
  }
  return {
    source: {
      name: 'Debian netbase 6.4 /etc/services (bundled copy)',
      url: 'https://salsa.debian.org/md/netbase',
      version: '6.4',
      licence: 'GPL-2.0',
      notes: ['maintained from the IANA Service Name and Transport Protocol Port Number Registry (https://www.iana.org/assignments/service-names-port-numbers/)'],
    },
    ports: parseServices(readFileSync(BUNDLED_SERVICES, 'utf8')),
  }
}

export function filterPorts(rows: readonly PortRow[], filter: { port?: number | undefined; service?: string | undefined; protocol?: string | undefined }): PortRow[] {
  const service = filter.service?.toLowerCase()
  return rows.filter(
    (r) =>
      (filter.port === undefined || r.port === filter.port) &&
      (filter.protocol === undefined || r.protocols.includes(filter.protocol)) &&
      (service === undefined || r.service.toLowerCase() === service || r.aliases.some((a) => a.toLowerCase() === service)),
  )
}
