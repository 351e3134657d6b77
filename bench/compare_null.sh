#!/usr/bin/env bash
# compare_null.sh — how often --compare calls two runs of one configuration
# different (doc/compare.md): REPS pairs of runs of the same workload on one
# throwaway cluster (scripts/cluster.sh), each pair compared; then one run
# slowed by pg_sleep in its script, compared with a plain one.  Prints, per
# figure, how many pairs were "no significant difference", and the slowed
# comparison.  Run by hand, never in CI.
#   bench/compare_null.sh [REPS (10)] [SECONDS per run (10)] [pgbench args...]
#   PGBENCH_OURS=path/to/pgbench bench/compare_null.sh 10 10 -S -c 4
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
ours=${PGBENCH_OURS:-$top/build/pgbench}
reps=${1:-10}
secs=${2:-10}
shift 2 2>/dev/null || shift $#
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(-S -c 2)

# shellcheck source=../scripts/cluster.sh
. "$top/scripts/cluster.sh"
work=$(mktemp -d /tmp/compare_null.XXXXXX)
chmod 755 "$work"
trap 'cluster_stop "$work/db" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
cluster_start "$work/db" >/dev/null
# a copy: a rebuild during the run must not swap the binary under it
cp "$ours" "$work/pgbench"
ours=$work/pgbench
"$ours" -i -q -s 10 >/dev/null 2>&1

declare -A same=()
figures=(tps "latency average" "latency p50" "latency p90" "latency p99" "latency max" failed)
all=0
for r in $(seq 1 "$reps"); do
	"$ours" -n "${args[@]}" -T "$secs" --report-json="$work/a$r.json" >/dev/null 2>"$work/err" || { echo "run a$r failed: $(cat "$work/err")" >&2; continue; }
	"$ours" -n "${args[@]}" -T "$secs" --report-json="$work/b$r.json" >/dev/null 2>"$work/err" || { echo "run b$r failed: $(cat "$work/err")" >&2; continue; }
	out=$("$ours" --compare "$work/a$r.json" "$work/b$r.json" 2>/dev/null)
	n=0
	for f in "${figures[@]}"; do
		if grep -E "^$f " <<<"$out" | grep -q 'no significant difference$'; then
			same[$f]=$((${same[$f]:-0} + 1))
			n=$((n + 1))
		fi
	done
	[ "$n" -eq ${#figures[@]} ] && all=$((all + 1))
	echo "pair $r: $n of ${#figures[@]} figures without a significant difference" >&2
done
echo "pairs of one configuration (${args[*]} -T $secs), $reps pairs:"
for f in "${figures[@]}"; do
	printf '  %-16s %d of %d no significant difference\n' "$f" "${same[$f]:-0}" "$reps"
done
printf '  %-16s %d of %d\n' "every figure" "$all" "$reps"

printf '\\set aid random(1, 1000000)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\nSELECT pg_sleep(0.001);\n' >"$work/slow.sql"
"$ours" -n -f "$work/slow.sql" -c 2 -T "$secs" --report-json="$work/slow.json" >/dev/null 2>&1
echo "a run slowed by pg_sleep(0.001) per transaction against the first plain run:"
"$ours" --compare "$work/a1.json" "$work/slow.json" 2>&1 | sed 's/^/  /'
