import { spawnSync } from 'node:child_process'
import { networkInterfaces } from 'node:os'

// More loopback addresses on `lo`, for servers that only listen on addresses an
// interface has (named). Only inside the test's own network namespace (only `lo`
// in it: unshare -n, as CI runs the suite), never on a machine's real interfaces.

export function addLoopbackAddresses(addresses: readonly string[]): void {
  const interfaces = Object.keys(networkInterfaces())
  if (interfaces.some((name) => name !== 'lo')) {
    throw new Error(`this test adds loopback addresses to lo and runs only in a network namespace with nothing but loopback (found ${interfaces.join(', ')}): unshare -n bash -c 'ip link set lo up; npx vitest run ...' as root, as .ci/run does`)
  }
  // Idempotent: several test files (and scripts/test-dates.sh's runs, one namespace)
  // add the same addresses. An address lo already has is skipped, and "already
  // there" is accepted in both wordings the kernel uses (iproute2 prints
  // "RTNETLINK answers: File exists" or, with extended acks, "Address already
  // assigned"), since two files may race between the check and the add.
  const present = new Set((networkInterfaces().lo ?? []).map((entry) => entry.address))
  for (const address of addresses) {
    if (present.has(address)) continue
    const out = spawnSync('ip', ['addr', 'add', `${address}/32`, 'dev', 'lo'], { encoding: 'utf8' })
    if (out.status !== 0 && !/File exists|already assigned/i.test(out.stderr)) throw new Error(`ip addr add ${address}: ${out.stderr}`)
  }
}
