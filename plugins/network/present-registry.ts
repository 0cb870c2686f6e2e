import type { z } from 'zod'
import type { AddressClassification, SpecialPurposeMatch } from '../../runtime/ip/special-purpose.ts'
import type { ClassificationData, SpecialPurposeData } from '../../registry/network/schemas/network-data.ts'

// The IP library's registry shapes in the API's snake_case.

export function presentSpecialPurpose({ prefix, entry }: SpecialPurposeMatch): z.input<typeof SpecialPurposeData> {
  return {
    prefix,
    name: entry.name,
    class: entry.class,
    rfcs: [...entry.rfcs],
    spec: entry.spec,
    allocated: entry.allocated,
    terminated: entry.terminated,
    source: entry.source,
    destination: entry.destination,
    forwardable: entry.forwardable,
    globally_reachable: entry.globallyReachable,
    reserved_by_protocol: entry.reservedByProtocol,
    notes: [...entry.notes],
  }
}

export function presentClassification(c: AddressClassification): z.input<typeof ClassificationData> {
  return { class: c.class, name: c.name, prefix: c.prefix, registry: c.registry }
}
