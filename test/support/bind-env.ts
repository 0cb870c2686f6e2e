// The environment BIND's tools (named, dig, delv) run with: the test's, minus
// libfaketime. CI runs the date-sensitive tests under libfaketime (.ci/run), which
// works through LD_PRELOAD in every child process; BIND links jemalloc, whose
// start-up recursion into clock_gettime libfaketime cannot recover from, so named
// and dig would hang. They run on the host's real time instead. What they are
// compared on does not depend on it: zones served as written, and DNSSEC fixtures
// signed for 2025-2045 (scripts/gen-dnssec-fixtures.sh).

export function bindEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(env)) {
    if (name === 'FAKETIME' || name.startsWith('FAKETIME_') || name === 'DONT_FAKE_MONOTONIC') continue
    out[name] = value
  }
  const preload = env.LD_PRELOAD?.split(/[\s:]+/).filter((lib) => lib !== '' && !lib.includes('faketime'))
  if (preload?.length) out.LD_PRELOAD = preload.join(':')
  else delete out.LD_PRELOAD
  return out
}
