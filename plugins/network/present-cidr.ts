import type { z } from 'zod'
import { analyzeCidr } from './cidr/analyze.ts'
import type { ExpandPage } from './cidr/expand.ts'
import type { Cidr } from '../../runtime/ip/ip-types.ts'
import { classify, lookupSpecialPurpose } from '../../runtime/ip/special-purpose.ts'
import type { SummarizeResult } from './cidr/summarize.ts'
import type { CidrAnalyzeData, CidrExpandData, CidrSummarizeData } from '../../registry/network/schemas/network-data.ts'
import { presentClassification, presentSpecialPurpose } from './present-registry.ts'

export function presentAnalysis(cidr: Cidr): z.input<typeof CidrAnalyzeData> {
  const a = analyzeCidr(cidr)
  const registry = lookupSpecialPurpose(cidr)
  return {
    cidr: a.cidr,
    input: `${a.address}/${a.prefixLength}`,
    version: a.version,
    prefix_length: a.prefixLength,
    host_bits_set: a.hostBitsSet,
    network: a.network,
    broadcast: a.broadcast,
    first_address: a.firstAddress,
    last_address: a.lastAddress,
    first_usable: a.firstUsable,
    last_usable: a.lastUsable,
    netmask: a.netmask,
    wildcard: a.wildcard,
    total_addresses: a.totalAddresses,
    usable_hosts: a.usableHosts,
    usable_rule: a.usableRule,
    usable_note: a.usableNote,
    bits: {
      total_bits: a.bits.totalBits,
      network_bits: a.bits.networkBits,
      host_bits: a.bits.hostBits,
      network: a.bits.network,
      host: a.bits.host,
      annotated: a.bits.annotated,
    },
    historic_class: a.historicClass,
    classification: presentClassification(classify(cidr)),
    special_purpose: registry.matches.map(presentSpecialPurpose),
    special_purpose_within: registry.within.map(({ prefix, entry }) => ({ prefix, name: entry.name, class: entry.class })),
  }
}

export function presentPage(page: ExpandPage): z.input<typeof CidrExpandData> {
  return {
    cidr: page.cidr,
    version: page.version,
    total: page.total,
    offset: page.offset,
    limit: page.limit,
    count: page.addresses.length,
    addresses: page.addresses,
    next_offset: page.nextOffset,
  }
}

export function presentSummary(r: SummarizeResult): z.input<typeof CidrSummarizeData> {
  const s = r.stats
  return {
    ipv4: r.ipv4,
    ipv6: r.ipv6,
    invalid: r.invalid,
    stats: {
      entries: s.entries,
      valid: s.valid,
      invalid: s.invalid,
      ipv4_input: s.ipv4Input,
      ipv6_input: s.ipv6Input,
      ipv4_output: s.ipv4Output,
      ipv6_output: s.ipv6Output,
      host_bits_cleared: s.hostBitsCleared,
      ipv4_addresses: s.ipv4Addresses,
      ipv6_addresses: s.ipv6Addresses,
    },
  }
}
