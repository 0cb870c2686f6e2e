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
  for (const address of addresses) {
    const out = spawnSync('ip', ['addr', 'add', `${address}/32`, 'dev', 'lo'], { encoding: 'utf8' })
    if (out.status !== 0 && !/File exists/.test(out.stderr)) throw new Error(`ip addr add ${address}: ${out.stderr}`)
  }
}
