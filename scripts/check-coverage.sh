#!/usr/bin/env bash
# check-coverage.sh [MIN] [RUN_MIN] — line coverage from unit tests alone,
# on build-cov (or $COVERAGE_BUILD; -Db_coverage=true; set up when
# missing; needs gcovr):
#  - the engine's (meson target coverage-engine: src/engine/ but the libpq
#    side of the session port) must be at least MIN percent (default 85);
#  - the orchestrator's (src/run/, from its unit tests test_run_bench,
#    test_run_sweep and test_run_decide, and test_runconf for the run
#    configuration it builds) at least RUN_MIN percent (default 80).
set -euo pipefail
cd "$(dirname "$0")/.."
min=${1:-85}
run_min=${2:-80}
build=${COVERAGE_BUILD:-build-cov}
[ -f "$build/build.ninja" ] || meson setup "$build" -Db_coverage=true >/dev/null
out=$(meson compile -C "$build" coverage-engine 2>&1) || { echo "$out" | tail -20; exit 1; }
echo "$out" | sed -n '/^-\{20,\}/,$p'
total=$(echo "$out" | awk '$1 == "TOTAL" { sub("%", "", $4); print $4 }')
[ -n "$total" ] || { echo "check-coverage: no TOTAL line from gcovr"; exit 1; }
if [ "$total" -lt "$min" ]; then
	echo "check-coverage: the engine's unit tests cover $total% of its lines, below $min%"
	exit 1
fi
echo "check-coverage: the engine's unit tests cover $total% of its lines (at least $min%)"

# src/run: the counters reset, its unit tests run, gcovr over its files
# (the build directory named as gcovr's search path: no other build's
# notes files are read)
run_tests="run_bench run_sweep run_decide runconf"
targets=$(for t in $run_tests; do printf 'test_%s ' "$t"; done)
out=$(meson compile -C "$build" $targets 2>&1) || { echo "$out" | tail -20; exit 1; }
find "$build" -name '*.gcda' -delete
# notes of a source the tree no longer has (moved or removed since this
# build was configured) would be merged with its new notes: dropped
find "$build" -name '*.gcno' | while read -r n; do [ -f "${n%.gcno}.o" ] || rm -f "$n"; done
for t in $run_tests; do
	"$build/t/test_$t" >/dev/null 2>&1 || echo "check-coverage: test_$t failed" >&2
done
out=$(gcovr --root . --object-directory "$build" --filter 'src/run/.*\.c' "$build" 2>&1) ||
	{ echo "$out" | tail -20; exit 1; }
echo "$out" | sed -n '/^-\{20,\}/,$p'
total=$(echo "$out" | awk '$1 == "TOTAL" { sub("%", "", $4); print $4 }')
[ -n "$total" ] || { echo "check-coverage: no TOTAL line from gcovr for src/run"; exit 1; }
if [ "$total" -lt "$run_min" ]; then
	echo "check-coverage: the orchestrator's unit tests cover $total% of src/run's lines, below $run_min%"
	exit 1
fi
echo "check-coverage: the orchestrator's unit tests cover $total% of src/run's lines (at least $run_min%)"
