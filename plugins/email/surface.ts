// What the email plugin offers other plugins: the one file of plugins/email/
// another plugin may import, and only when it names "email" in its
// `dependencies` (test/architecture/layers.test.ts). Re-exports, the sanctioned
// exception to "no barrels".

/** One STARTTLS session with a mail host through the guarded network (DANE for SMTP reads the served chain). */
export type { ProbeOptions, StarttlsResult } from './starttls/starttls-probe.ts'
export { probeStarttls } from './starttls/starttls-probe.ts'
/** A probe's share of the request deadline, as the email answers give theirs. */
export { probeTimeoutMs } from './probe-timeout.ts'
