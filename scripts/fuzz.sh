#!/usr/bin/env bash
# fuzz.sh — build the libFuzzer targets of fuzz/ (clang, ASan, UBSan, in
# build-fuzz) and run each: first every input of fuzz/regress/<target>/
# (inputs that once crashed: each must now pass), then fuzzing from
# fuzz/corpus/<target>/ for SECONDS (default 60) per target, with the
# dictionary fuzz/<target>.dict.  New inputs
# the fuzzer finds stay in a scratch directory; fuzz/corpus is only read.
# Exit status 0 when nothing crashed, leaked or hung; a crashing input is
# left in build-fuzz/artifacts/<target>/ (copy it into fuzz/regress/).
#   bash scripts/fuzz.sh [SECONDS]          build, replay, fuzz
#   bash scripts/fuzz.sh build              build only
#   bash scripts/fuzz.sh merge DIR...       add the inputs of DIR... that
#                                           bring new coverage to the corpus
#                                           (per target: DIR/<target>/; new
#                                           edges only, to keep it small)
# FUZZ_ARGS adds libFuzzer flags (e.g. FUZZ_ARGS=-runs=10000000).
# FUZZ_TARGETS picks targets (e.g. FUZZ_TARGETS="script merge"); FUZZ_KEEP=DIR
# keeps the inputs found (DIR/<target>/, for a later "fuzz.sh merge DIR").
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

targets=(script options merge report)
if [ -n "${FUZZ_TARGETS:-}" ]; then
	read -r -a targets <<<"$FUZZ_TARGETS"
fi
dir=$top/build-fuzz

if ! command -v clang >/dev/null; then
	echo "fuzz.sh: clang not found, fuzzing skipped"
	exit 0
fi
if [ ! -f "$dir/build.ninja" ]; then
	rm -rf "$dir"
	CC=clang meson setup "$dir" -Dfuzz=true -Db_lto=false \
		-Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
# shellcheck disable=SC2046
if ! meson compile -C "$dir" $(printf 'fuzz/fuzz_%s ' "${targets[@]}") >"$dir/fuzz-build.log" 2>&1; then
	echo "fuzz.sh: the build FAILED:"
	grep -E 'error|FAILED' "$dir/fuzz-build.log" | head -20
	exit 1
fi
[ "${1:-}" = build ] && exit 0

export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# -timeout: wall-clock, so a loaded machine (CI shares 2 cores) can stall
# an input of 0.5 s for 10 s under ASan's quarantine: 60 s still finds a
# hang.  Deep expressions overflow the stack: bounded inputs keep that known
# limit out of the way (the expression depth limit is another change)
common=(-timeout=60 -rss_limit_mb=2048)

# inputs up to 4096 bytes; fuzz_merge's are reports (2.7 to 5 KB each,
# two in a seed): 16384
max_len() { [ "$1" = merge ] && echo 16384 || echo 4096; }

# the options target opens -f s.sql relative to its working directory
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
found=$scratch
if [ -n "${FUZZ_KEEP:-}" ]; then
	mkdir -p "$FUZZ_KEEP"
	found=$(realpath "$FUZZ_KEEP")
fi
printf '\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n' \
	>"$scratch/s.sql"
cd "$scratch"

if [ "${1:-}" = merge ]; then
	shift
	for t in "${targets[@]}"; do
		srcs=()
		for d in "$@"; do [ -d "$d/$t" ] && srcs+=("$(realpath "$d/$t")"); done
		[ ${#srcs[@]} -gt 0 ] || continue
		"$dir/fuzz/fuzz_$t" -merge=1 -use_counters=0 -max_len="$(max_len "$t")" "${common[@]}" \
			"$top/fuzz/corpus/$t" "${srcs[@]}" 2>&1 | tail -1
	done
	exit 0
fi

seconds=${1:-60}
rc=0
for t in "${targets[@]}"; do
	exe=$dir/fuzz/fuzz_$t
	regress=("$top"/fuzz/regress/$t/*)
	if [ -e "${regress[0]}" ]; then
		if "$exe" -max_len="$(max_len "$t")" "${common[@]}" "${regress[@]}" >"$scratch/$t.regress.log" 2>&1; then
			echo "fuzz.sh: $t: ${#regress[@]} regression inputs pass"
		else
			echo "fuzz.sh: $t: a regression input FAILED"
			tail -40 "$scratch/$t.regress.log"
			rc=1
		fi
	fi
	mkdir -p "$found/$t" "$dir/artifacts/$t"
	# shellcheck disable=SC2086
	if "$exe" -max_len="$(max_len "$t")" "${common[@]}" -max_total_time="$seconds" -print_final_stats=1 \
		-dict="$top/fuzz/$t.dict" -artifact_prefix="$dir/artifacts/$t/" ${FUZZ_ARGS:-} \
		"$found/$t" "$top/fuzz/corpus/$t" >"$scratch/$t.log" 2>&1; then
		echo "fuzz.sh: $t: $(grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)' "$scratch/$t.log" |
			sed 's/^stat:://; s/: */=/' | tr '\n' ' ')$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$scratch/$t.log" | tail -1)"
	else
		echo "fuzz.sh: $t: FAILED (input in $dir/artifacts/$t/)"
		grep -A40 -E '^fuzz_[a-z]+: |^==[0-9]+==|runtime error|ERROR: libFuzzer' "$scratch/$t.log" | head -60
		rc=1
	fi
done
exit $rc
