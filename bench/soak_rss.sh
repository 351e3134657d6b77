#!/usr/bin/env bash
# soak_rss.sh — the client's resident memory over a long run with a report
# file: issue 23's "RSS stays flat within 1 MB after the first minute".
# Starts a throwaway cluster (scripts/cluster.sh), runs
#   PGBENCH -c 8 -j 2 -S -P 1 -R RATE -T SECONDS --report-json=FILE
# and reads VmRSS of the pgbench process every STEP seconds.  Prints one
# line per sample and, last, the growth from the end of the first minute
# to the end.  Run by hand, never in CI.
#   bench/soak_rss.sh [PGBENCH] [SECONDS=1800] [RATE=2000] [STEP=10]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$top/build/pgbench}
secs=${2:-1800}
rate=${3:-2000}
step=${4:-10}
work=$(mktemp -d /tmp/soak.XXXXXX)
chmod 755 "$work"
# shellcheck source=../scripts/cluster.sh
. "$top/scripts/cluster.sh"
cluster_start "$work/db" >/dev/null
trap 'cluster_stop "$work/db" >/dev/null 2>&1; rm -rf "$work"' EXIT
"$bin" -i -s 10 -q >/dev/null 2>&1
"$bin" -c 8 -j 2 -S -P 1 -R "$rate" -T "$secs" --report-json="$work/r.json" \
	>"$work/out" 2>"$work/err" &
pid=$!
t=0
first=
while kill -0 "$pid" 2>/dev/null; do
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
	[ -n "$rss" ] || break
	echo "t=${t}s rss_kb=$rss"
	[ "$t" -ge 60 ] && [ -z "$first" ] && first=$rss
	last=$rss
	sleep "$step"
	t=$((t + step))
done
wait "$pid" || true
grep -E '^tps|processed' "$work/out" || true
points=$(grep -c '"t_s"' "$work/r.json" || true)
echo "report: $points points, $(stat -c %s "$work/r.json") bytes"
if [ -n "$first" ]; then
	echo "rss growth after the first minute: $((last - first)) kB (from $first to $last kB)"
fi
