#!/usr/bin/env bash
# check-coverage.sh [MIN] — the engine's line coverage from its unit tests
# alone (meson target coverage-engine: src/engine/ but the libpq side of
# the session port) must be at least MIN percent (default 85).  Builds
# build-cov (-Db_coverage=true) when missing; needs gcovr.
set -euo pipefail
cd "$(dirname "$0")/.."
min=${1:-85}
[ -f build-cov/build.ninja ] || meson setup build-cov -Db_coverage=true >/dev/null
out=$(meson compile -C build-cov coverage-engine 2>&1) || { echo "$out" | tail -20; exit 1; }
echo "$out" | sed -n '/^-\{20,\}/,$p'
total=$(echo "$out" | awk '$1 == "TOTAL" { sub("%", "", $4); print $4 }')
[ -n "$total" ] || { echo "check-coverage: no TOTAL line from gcovr"; exit 1; }
if [ "$total" -lt "$min" ]; then
	echo "check-coverage: the engine's unit tests cover $total% of its lines, below $min%"
	exit 1
fi
echo "check-coverage: the engine's unit tests cover $total% of its lines (at least $min%)"
