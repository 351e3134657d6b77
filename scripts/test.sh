#!/usr/bin/env bash
# test.sh — install what is missing, build with -Wall -Wextra, and run every
# test (C unit tests and Perl TAP tests against real throwaway clusters).
# SANITIZE=1 builds with AddressSanitizer and UBSan in build-asan instead.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

bash scripts/deps.sh
if [ "${SANITIZE:-0}" = 1 ]; then
	dir=build-asan
	[ -f $dir/build.ninja ] || rm -rf $dir; [ -f $dir/build.ninja ] || meson setup $dir -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
	dir=build
	[ -f $dir/build.ninja ] || rm -rf $dir; [ -f $dir/build.ninja ] || meson setup $dir >/dev/null
fi
meson compile -C $dir
meson test -C $dir --print-errorlogs "$@"
