import type { z } from 'zod'
import type { ResolverContext } from '../../../runtime/define-plugin.ts'
import type { GuardedNetwork } from '../../../runtime/net/guarded-network.ts'
import emailMx from '../../../registry/email/mx.ts'
import emailSpf from '../../../registry/email/spf.ts'
import type { EmailNetworksData } from '../../../registry/email/schemas/networks-data.ts'
import type { TlsPartShape } from '../../../registry/email/schemas/starttls-data.ts'
import { inspectTls } from '../starttls/tls-inspect.ts'
import type { AddressFacts } from './address-facts.ts'
import { addressFacts, partError } from './address-facts.ts'
import { networkFindings } from './findings.ts'
import { spfNetworks } from './spf-networks.ts'

// /api/email/networks: the SPF tree's authorized networks (spf-networks.ts) and
// the MX hosts' addresses, each with the facts of address-facts.ts, and STARTTLS
// on each MX host probed as /api/email/health probes it. Every part degrades on
// its own.

type Data = z.input<typeof EmailNetworksData>

/** More networks or MX addresses than this are listed as skipped: each costs an RDAP, a BGP and a DNSBL question. */
export const MAX_ROWS = 16
const DEGRADED_TTL_S = 60

export interface NetworksEnv {
  network: GuardedNetwork
  smtpPort: number
  ca: string[] | undefined
  probeTimeoutMs: number
}

const settle = <T>(p: Promise<T>) => p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }))

export async function emailNetworks(domain: string, ctx: ResolverContext, env: NetworksEnv, budgetMs: number): Promise<Data> {
  const deadlineAt = performance.now() + budgetMs
  const left = () => Math.max(1, Math.round(deadlineAt - performance.now()))
  const errors: Data['errors'] = []
  const skipped: Data['skipped'] = []

  const [spfAnswer, mxAnswer] = await Promise.all([settle(ctx.invoke(emailSpf, { domain }, { timeoutMs: left() })), settle(ctx.invoke(emailMx, { domain }, { timeoutMs: left() }))])

  let spf: Data['spf'] = null
  let nets: ReturnType<typeof spfNetworks> = []
  if (spfAnswer.ok) {
    const s = spfAnswer.value.data
    spf = { status: s.status, record: s.record, verdict: s.verdict, lookups: s.lookups.count }
    nets = spfNetworks(s)
  } else errors.push(partError('spf', spfAnswer.error, ctx))
  if (nets.length > MAX_ROWS) skipped.push({ part: 'networks', reason: `${nets.length} networks; the first ${MAX_ROWS} were asked about: ${nets.slice(MAX_ROWS).map((n) => n.network).join(', ')} were not` })

  type MxHost = { host: string; preference: number; address: string; ptr: string[]; fcrdns: boolean | null }
  let mxRows: MxHost[] = []
  let starttls: Promise<TlsPartShape | null> = Promise.resolve(null)
  if (mxAnswer.ok) {
    const mx = mxAnswer.value.data
    mxRows = mx.records.flatMap((r) =>
      r.addresses.map((address) => {
        const rev = r.reverse_dns.find((x) => x.address === address)
        return { host: r.exchange, preference: r.preference, address, ptr: rev?.ptr ?? [], fcrdns: rev && rev.error === null ? rev.fcrdns : null }
      }),
    )
    // The probes of /api/email/health (the same code, port and trust): at most 5 hosts, each under the probe deadline.
    starttls = inspectTls(env.network, mx, { port: env.smtpPort, ca: env.ca, signal: ctx.signal, timeoutMs: Math.min(env.probeTimeoutMs, left()), now: ctx.clock.now() }).catch((error: unknown) => {
      errors.push(partError('starttls', error, ctx))
      return null
    })
  } else errors.push(partError('mx', mxAnswer.error, ctx))
  if (mxRows.length > MAX_ROWS) skipped.push({ part: 'mx', reason: `${mxRows.length} MX addresses; the first ${MAX_ROWS} were asked about: ${mxRows.slice(MAX_ROWS).map((r) => r.address).join(', ')} were not` })

  // One question set per distinct address, whichever table asks.
  const asked = new Map<string, Promise<AddressFacts>>()
  const factsOf = (address: string, sampled: boolean, registration: boolean) => {
    const key = `${address}|${sampled}|${registration}`
    let p = asked.get(key)
    if (!p) asked.set(key, (p = addressFacts(ctx, address, { registration, sampled, timeoutMs: left })))
    return p
  }
  const [networks, mxFacts, tls] = await Promise.all([
    Promise.all(
      nets.slice(0, MAX_ROWS).map(async (n) => {
        const f = await factsOf(n.first, n.size !== '1', true)
        return {
          network: n.network, version: n.version, prefix_length: n.prefixLength, size: n.size, sources: n.sources,
          holder: f.holder, allocation: f.allocation, bogon: f.bogon, route: f.route, origins: f.origins, rpki: f.rpki, blocklist: f.blocklist, errors: f.errors,
        }
      }),
    ),
    Promise.all(mxRows.slice(0, MAX_ROWS).map((r) => factsOf(r.address, false, false))),
    starttls,
  ])
  const mx: Data['mx'] = mxRows.slice(0, MAX_ROWS).map((r, i) => {
    const f = mxFacts[i]!
    const probe = tls?.hosts.find((h) => h.host === r.host)
    return {
      ...r, version: r.address.includes(':') ? 6 : 4, bogon: f.bogon, route: f.route, origins: f.origins, rpki: f.rpki, blocklist: f.blocklist,
      starttls: probe ? { status: probe.status, protocol: probe.tls?.protocol ?? null, trusted: probe.tls ? probe.tls.trusted : null, name_matches: probe.tls ? probe.tls.name_matches : null } : null,
      errors: f.errors,
    }
  })

  if (errors.length > 0 || networks.some((n) => n.errors.length > 0) || mx.some((r) => r.errors.length > 0)) ctx.lowerTtl(DEGRADED_TTL_S)
  return { domain, spf, networks, mx, findings: networkFindings({ networks, mx }), errors, skipped }
}
