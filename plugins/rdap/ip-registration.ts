import type { z } from 'zod'
import type { RdapClient } from './rdap-client.ts'
import type { IpWhoisData } from '../../registry/domain/schemas/rdap-data.ts'
import { registryName } from './registry-name.ts'

/** /api/whois/ip: the registry's network object holding the address. */
export async function ipRegistration(rdap: RdapClient, ip: string, signal?: AbortSignal): Promise<z.input<typeof IpWhoisData>> {
  const { object, ...source } = await rdap.ip(ip, signal)
  return { ip, registry: registryName(object.port43, source.rdap_url), ...object, ...source }
}
