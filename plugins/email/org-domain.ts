import { getDomain } from 'tldts'

/**
 * The Organizational Domain (RFC 7489 §3.2): the registrable domain by the Public
 * Suffix List, private section included so that one tenant of a shared suffix
 * (github.io, blogspot.com) is not another's organization. A name that is itself
 * a public suffix, or that the list cannot place, is its own organization.
 */
export function organizationalDomain(domain: string): string {
  const name = domain.toLowerCase().replace(/\.$/, '')
  return getDomain(name, { allowPrivateDomains: true }) ?? name
}
