import type { IpVersion } from './ip-types.ts'

/**
 * Short names for the special-purpose blocks, chosen so an API user can branch on
 * them; the registry's own `name` stays alongside for humans. 'special' is what the
 * generator gives a block IANA adds before this list learns its name.
 */
export type SpecialPurposeClass =
  | 'this-network'
  | 'unspecified'
  | 'private'
  | 'cgnat'
  | 'loopback'
  | 'link-local'
  | 'ietf-protocol'
  | 'ipv4-service-continuity'
  | 'dummy'
  | 'anycast'
  | 'nat64-discovery'
  | 'documentation'
  | 'as112'
  | 'amt'
  | 'deprecated'
  | 'benchmarking'
  | 'reserved'
  | 'broadcast'
  | 'ipv4-mapped'
  | 'nat64'
  | 'discard'
  | 'teredo'
  | 'orchid'
  | 'drone-remote-id'
  | '6to4'
  | 'unique-local'
  | 'special'

/**
 * A registry boolean. null where the registry says "N/A" (6to4, Teredo: it depends
 * on the embedded IPv4 address) or leaves the cell empty (terminated entries);
 * `notes` says which.
 */
export type RegistryFlag = boolean | null

export interface SpecialPurposeEntry {
  version: IpVersion
  /** Usually one block; "NAT64/DNS64 Discovery" lists two /32s in one entry. */
  addressBlocks: readonly string[]
  name: string
  class: SpecialPurposeClass
  /** RFCs named in the entry's spec column, like "RFC 6890". */
  rfcs: readonly string[]
  /** The spec column as text, sections included. */
  spec: string
  /** YYYY-MM */
  allocated: string
  terminated: string | null
  source: RegistryFlag
  destination: RegistryFlag
  forwardable: RegistryFlag
  globallyReachable: RegistryFlag
  reservedByProtocol: RegistryFlag
  /** Footnotes the entry points to, prefixed by the columns that point to them. */
  notes: readonly string[]
}

export interface SpecialPurposeRegistry {
  version: IpVersion
  id: string
  title: string
  /** Where the registry is published; the generator read a copy of this file. */
  source: string
  /** The registry's own <updated> date. */
  updated: string
  entries: readonly SpecialPurposeEntry[]
}

export interface Ipv4AddressSpaceEntry {
  /** The /8, like "3.0.0.0/8". */
  prefix: string
  designation: string
  status: 'ALLOCATED' | 'LEGACY' | 'RESERVED' | 'UNALLOCATED'
  date: string
  whois: string | null
  rdap: readonly string[]
}

export interface Ipv6AddressSpaceEntry {
  prefix: string
  description: string
  rfcs: readonly string[]
}

export interface AddressSpaceRegistry<T> {
  version: IpVersion
  id: string
  title: string
  source: string
  updated: string
  entries: readonly T[]
}
