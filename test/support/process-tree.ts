import { readFileSync } from 'node:fs'

// The processes a test or benchmark started and their children (npm, the cluster's
// primary, its workers), read from Linux's /proc: to check that none is left
// serving as an orphan, or to add up their memory.

/** Every process below `pid`, children before grandchildren. */
export function descendants(pid: number): number[] {
  let children: number[] = []
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
  return children.flatMap((c) => [c, ...descendants(c)])
}

/** Whether `pid` still exists (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
