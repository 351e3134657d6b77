#!/bin/sh
# coverage-engine.sh BUILD SRC TEST... — line coverage of the run engine
# (src/engine/ but the libpq side of the session port, session_libpq.c,
# which the unit tests replace by a scripted session) from its unit
# tests alone: the
# counters of BUILD (configured with -Db_coverage=true) are reset, the
# TEST executables run, and gcovr prints the engine's files.  Run through
# meson: meson compile -C BUILD coverage-engine.
set -eu
build=$1
src=$2
shift 2
if ! command -v gcovr >/dev/null; then
	echo "coverage-engine: gcovr is not installed (Debian: apt install gcovr)" >&2
	exit 1
fi
if ! find "$build" -name '*.gcno' | grep -q .; then
	echo "coverage-engine: $build is not built for coverage (meson configure -Db_coverage=true)" >&2
	exit 1
fi
find "$build" -name '*.gcda' -delete
# notes of a source the tree no longer has (moved or removed since this
# build was configured) would be merged with its new notes: dropped
find "$build" -name '*.gcno' | while read -r n; do [ -f "${n%.gcno}.o" ] || rm -f "$n"; done
for test in "$@"; do
	"$test" >/dev/null 2>&1 || echo "coverage-engine: $test failed" >&2
done
# the build directory as the search path: no other build's notes are read
gcovr "$build" --root "$src" --object-directory "$build" \
	--filter "$src/src/engine/.*\.c" --exclude "$src/src/engine/session_libpq\.c" \
	--txt
