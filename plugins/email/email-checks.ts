import type { GuardedNetwork } from '../../runtime/net/guarded-network.ts'
import { inspectDkim } from './dkim/dkim-inspect.ts'
import type { DkimDataShape } from '../../registry/email/schemas/dkim-data.ts'
import { inspectDmarc } from './dmarc/dmarc-inspect.ts'
import type { DmarcDataShape } from '../../registry/email/schemas/dmarc-data.ts'
import type { EmailDns } from './email-dns.ts'
import type { Finding } from '../../registry/email/schemas/findings.ts'
import { finding } from './findings.ts'
import { inspectMtaSts } from './mta-sts/mta-sts-inspect.ts'
import type { MtaStsShape } from '../../registry/email/schemas/mta-sts-data.ts'
import { inspectMx } from './mx/mx-inspect.ts'
import type { MxDataShape } from '../../registry/email/schemas/mx-data.ts'
import { inspectBimi } from './records/bimi.ts'
import type { BimiShape } from '../../registry/email/schemas/bimi-data.ts'
import { inspectTlsRpt } from './records/tls-rpt.ts'
import type { TlsRptShape } from '../../registry/email/schemas/tls-rpt-data.ts'
import { inspectSpf } from './spf/spf-inspect.ts'
import type { SpfDataShape } from '../../registry/email/schemas/spf-data.ts'
import { inspectTls } from './starttls/tls-inspect.ts'
import type { TlsPartShape } from '../../registry/email/schemas/starttls-data.ts'

// Everything health and diagnose look at, run with as much overlap as the data
// allows: SPF, DMARC, DKIM and MX at once; then the checks that need the MX hosts
// (STARTTLS probes, MTA-STS coverage) at once; BIMI once DMARC is known, TLS-RPT
// once the MTA-STS record is, beside the probes rather than after them, so a
// silent host costs the answer one probe deadline and nothing more.

export interface EmailEnv {
  dns: EmailDns
  network: GuardedNetwork
  signal: AbortSignal
  smtpPort: number
  /** Roots trusted for STARTTLS (undefined: Node's bundle). */
  ca: string[] | undefined
  allowLoopback: boolean
  /** Deadline of one STARTTLS probe and of the MTA-STS policy fetch (probe-timeout.ts). */
  probeTimeoutMs: number
  /** The service clock's now (ms): certificate ages, the SPF %{t} macro. */
  now: number
}

export interface EmailReport {
  spf: SpfDataShape
  dmarc: DmarcDataShape
  dkim: DkimDataShape
  mx: MxDataShape
  tls: TlsPartShape
  mta_sts?: MtaStsShape
  tls_rpt?: TlsRptShape
  bimi?: BimiShape
  sends_mail: boolean
  receives_mail: boolean
  /** Findings that need two parts to see (e.g. MTA-STS enforce over a broken STARTTLS). */
  cross: Finding[]
}

/** "v=spf1 -all" (and nothing else) is a domain that says it sends no mail. */
export function sendsMail(spf: SpfDataShape): boolean {
  const root = spf.tree[0]
  if (!root || spf.status !== 'found') return true
  const active = root.terms.filter((t) => !t.ignored && !(t.type === 'modifier' && t.name !== 'redirect'))
  return !(active.length === 1 && active[0]!.name === 'all' && active[0]!.qualifier === '-')
}

export async function runEmailChecks(env: EmailEnv, domain: string, options: { selectors?: readonly string[]; extended: boolean }): Promise<EmailReport> {
  const [spf, dmarc, dkim, mx] = await Promise.all([
    inspectSpf(env.dns, domain, { now: Math.floor(env.now / 1000) }),
    inspectDmarc(env.dns, domain),
    inspectDkim(env.dns, domain, options.selectors ?? []),
    inspectMx(env.dns, domain, { allowLoopback: env.allowLoopback }),
  ])
  const mxHosts = mx.records.filter((h) => h.exchange !== '.').map((h) => h.exchange)
  const stsAndRpt = async () => {
    const sts = await inspectMtaSts(env.dns, env.network, domain, mxHosts, { signal: env.signal, timeoutMs: env.probeTimeoutMs })
    return { sts, rpt: await inspectTlsRpt(env.dns, domain, sts.record.status === 'found') }
  }
  const [tls, sts, bimi] = await Promise.all([
    inspectTls(env.network, mx, { port: env.smtpPort, ca: env.ca, signal: env.signal, timeoutMs: env.probeTimeoutMs, now: env.now }),
    options.extended ? stsAndRpt() : Promise.resolve(undefined),
    options.extended ? inspectBimi(env.dns, domain, { applied_policy: dmarc.applied_policy, pct: dmarc.policy?.pct ?? null, sp: dmarc.policy?.sp ?? null }) : Promise.resolve(undefined),
  ])
  const mtaSts = sts?.sts
  const tlsRpt = sts?.rpt
  const published = mtaSts !== undefined && mtaSts.record.status === 'found'
  const cross: Finding[] = []
  if (mtaSts?.policy?.mode === 'enforce' && published) {
    for (const host of tls.hosts) {
      const broken = host.status === 'no_starttls' || host.status === 'tls_failed' || (host.status === 'ok' && (!host.tls?.trusted || !host.tls.name_matches))
      if (broken) {
        cross.push(
          finding(
            'mta_sts.enforce_tls_broken',
            'critical',
            `MTA-STS is enforced, but ${host.host} ${host.status === 'ok' ? `presents a certificate that ${host.tls?.trusted ? 'does not name it' : 'does not verify'}` : 'has no working STARTTLS'}: MTA-STS senders will not deliver to it.`,
            `Fix TLS on ${host.host} (a trusted certificate for its name), or set the policy to mode: testing until it is fixed.`,
          ),
        )
      }
    }
  }
  return {
    spf,
    dmarc,
    dkim,
    mx,
    tls,
    ...(mtaSts ? { mta_sts: mtaSts } : {}),
    ...(tlsRpt ? { tls_rpt: tlsRpt } : {}),
    ...(bimi ? { bimi } : {}),
    sends_mail: sendsMail(spf),
    receives_mail: mx.accepts_mail,
    cross,
  }
}
