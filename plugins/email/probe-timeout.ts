// How long one probe of a host the domain names (a STARTTLS session with an MX
// host, the MTA-STS policy fetch) may take: a third of the request deadline,
// between 200 ms and 10 s. /api/email/health and /diagnose run DNS first, then
// every STARTTLS probe and the MTA-STS lookup side by side, then one more DNS
// question, so a silent host costs one share and the DNS around it must fit in
// the other two; the answer then reports that host as timed out instead of the
// whole request turning into a 504. The report's email area (at most 80% of the
// request deadline) fits the same way.

const SHARE = 1 / 3
const MIN_MS = 200
const MAX_MS = 10_000

export function probeTimeoutMs(requestTimeoutMs: number): number {
  return Math.max(MIN_MS, Math.min(MAX_MS, Math.floor(requestTimeoutMs * SHARE)))
}
