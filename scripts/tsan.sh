#!/usr/bin/env bash
# tsan.sh — build with ThreadSanitizer (build-tsan; clang when present,
# else gcc) and run the Perl tests whose runs use several threads (-j):
# by default those that fit in CI's time and assert no wall-clock bound
# (progress, logs, report: -j runs with -P, -l, aggregate logs, the report
# files' series, -R); TESTS="..." names others (run_control, run_abort,
# run_basic, run_meta ...: their time bounds, generous for a normal build,
# can be missed by a TSan build on a loaded machine),
# e.g. TESTS=run_matrix, TESTS=all for every test with -j.  TSan's reports
# go to build-tsan/tsan-reports/ rather than into the output the tests
# compare, and do not change the exit code; any report fails this
# script, and its first lines are printed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

dir=$top/build-tsan
if [ ! -f "$dir/build.ninja" ]; then
	rm -rf "$dir"
	cc=gcc
	command -v clang >/dev/null && cc=clang
	CC=$cc meson setup "$dir" -Db_sanitize=thread -Db_lto=false -Db_lundef=false >/dev/null
fi
meson compile -C "$dir" pgbench >/dev/null
[ "${1:-}" = build ] && exit 0		# build only (.ci/run builds ahead)

default="progress logs report"
with_j=$(grep -l -- "'-j'" t/*.pl | xargs -n1 basename | sed 's/\.pl$//' | tr '\n' ' ')
case "${TESTS:-}" in
	'') tests=$default ;;
	all) tests=$with_j ;;
	*) tests=$TESTS ;;
esac

reports=$dir/tsan-reports
rm -rf "$reports"
mkdir -p "$reports"
export TSAN_OPTIONS="log_path=$reports/tsan exitcode=0 halt_on_error=0 second_deadlock_stack=1"
rc=0
# shellcheck disable=SC2086
meson test -C "$dir" --suite perl --print-errorlogs $tests || rc=1
n=$(cat "$reports"/tsan.* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer' || true)
if [ "$n" -gt 0 ]; then
	echo "tsan.sh: $n ThreadSanitizer reports in $reports:"
	cat "$reports"/tsan.* | grep -A30 -m3 '^WARNING: ThreadSanitizer'
	rc=1
else
	echo "tsan.sh: no ThreadSanitizer report ($tests)"
fi
exit $rc
