#!/usr/bin/env bash
# The date-sensitive tests under a clock moved far ahead and back (libfaketime,
# Debian's faketime package): ages, days left, certificate and OCSP validity,
# RDAP expiry, VRP expiry, DNSSEC validity windows, recorded examples, CT certificates'
# expiry (issuance), stale DS and TLSA over signed zones (delegation, DANE). No expected
# value of theirs may come from the wall clock, so they pass on any date.
#
#   scripts/test-dates.sh                    +400 days, +3 years, -1 year
#   scripts/test-dates.sh '+10y' ...         other offsets (faketime -f syntax)
#
# BIND's named, dig and delv and redis-server link jemalloc, which libfaketime
# hangs; test/support/bind-env.ts runs BIND's tools on the real time, and no test
# here needs Redis.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v faketime >/dev/null || { echo "scripts/test-dates.sh needs faketime (apt-get install faketime)" >&2; exit 1; }

TESTS=(
  test/gateway/docs-examples.test.ts test/gateway/clock.test.ts test/gateway/cache.test.ts
  test/gateway/memory-windows.test.ts test/gateway/envelope.test.ts
  test/tls test/rdap test/routing test/dnssec test/report test/security test/email
  test/utilities test/network test/web test/dns-endpoints test/e2e/dnssec-interop.test.ts
  test/domain test/delegation test/dane
)
OFFSETS=("$@")
[ ${#OFFSETS[@]} -gt 0 ] || OFFSETS=('+400d' '+3y' '-1y')

for offset in "${OFFSETS[@]}"; do
  echo "== date-sensitive tests at $(faketime -f "$offset" date -u +%Y-%m-%dT%H:%M:%SZ) (faketime $offset)"
  # testssl.sh's checks read no date and take ~8 minutes: once, in the main run, is enough.
  faketime -f "$offset" npx vitest run "${TESTS[@]}" --exclude test/tls/testssl-checks.test.ts
done
