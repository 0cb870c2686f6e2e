import type { z } from 'zod'
import type { RdapClient } from './rdap-client.ts'
import type { AsnRegistrationData } from '../../registry/domain/schemas/rdap-data.ts'
import { registryName } from './registry-name.ts'

/**
 * The registration half of an ASN answer (holder, country, RIR, dates, contacts),
 * from the RIR's autnum object. Exported for whoever builds /api/asn with routing
 * data beside it; it throws the runtime's errors (404 unknown, 502 upstream).
 */
export async function asnRegistration(rdap: RdapClient, asn: number, signal?: AbortSignal): Promise<z.input<typeof AsnRegistrationData>> {
  const { object, ...source } = await rdap.autnum(asn, signal)
  return { asn, registry: registryName(object.port43, source.rdap_url), ...object, ...source }
}
