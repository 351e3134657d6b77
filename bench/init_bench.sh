#!/bin/bash
# init_bench.sh — initialization speed, our pgbench against the system one.
#
# Usage: bench/init_bench.sh [our-pgbench] [system-pgbench]
#   defaults: build/pgbench and /usr/lib/postgresql/15/bin/pgbench
# Environment: ROUNDS (wall-time rounds, default 7), SCALE (default 20),
#   WAL_LEVEL (default minimal; replica to include WAL for the bulk load),
#   CG_SCALES ("1 5": the two scales whose difference gives instructions per
#   scale unit, so that start-up and the fixed steps cancel out),
#   SKIP_INSTRUCTIONS (non-empty: wall time only).
#
# Run by hand, never in CI.  Starts a throwaway cluster tuned for bulk loads
# (as the postgres user when run as root) in a temporary directory, then:
#   1. wall time of `-i -s $SCALE -q`, ours and theirs alternately, medians;
#   2. client user-space instructions per scale unit with `perf stat -e
#      instructions:u` when the machine has the counter, else callgrind.
# Prints the figures and the ratios ours/theirs.
set -euo pipefail

OURS=${1:-build/pgbench}
THEIRS=${2:-/usr/lib/postgresql/15/bin/pgbench}
ROUNDS=${ROUNDS:-7}
SCALE=${SCALE:-20}
WAL_LEVEL=${WAL_LEVEL:-minimal}
CG_SCALES=${CG_SCALES:-"1 5"}

OURS=$(readlink -f "$OURS")
THEIRS=$(readlink -f "$THEIRS")
for bin in "$OURS" "$THEIRS"; do
	[ -x "$bin" ] || { echo "init_bench: $bin is not executable" >&2; exit 1; }
done

bindir=$(pg_config --bindir 2>/dev/null || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
	for v in 18 17 16 15; do
		if [ -x /usr/lib/postgresql/$v/bin/initdb ]; then
			bindir=/usr/lib/postgresql/$v/bin
			break
		fi
	done
fi

# ---- the cluster -----------------------------------------------------------

base=$(mktemp -d /tmp/init_bench.XXXXXX)
chmod 755 "$base"
as_pg=()
if [ "$(id -u)" = 0 ]; then
	id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
	chown postgres "$base"
	as_pg=(runuser -u postgres --)
fi
port=$((20000 + RANDOM % 30000))

cleanup() {
	"${as_pg[@]}" "$bindir/pg_ctl" -D "$base/data" -m immediate -w stop >/dev/null 2>&1 || true
	rm -rf "$base"
}
trap cleanup EXIT

"${as_pg[@]}" "$bindir/initdb" -D "$base/data" -A trust -U postgres --no-sync \
	-E UTF8 --locale=C >/dev/null
wal_senders=""
[ "$WAL_LEVEL" = minimal ] && wal_senders="max_wal_senders = 0"
cat >>"$base/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$base'
port = $port
fsync = off
synchronous_commit = off
full_page_writes = off
wal_level = $WAL_LEVEL
$wal_senders
shared_buffers = 512MB
max_wal_size = 16GB
checkpoint_timeout = 1h
autovacuum = off
EOF
"${as_pg[@]}" "$bindir/pg_ctl" -D "$base/data" -l "$base/server.log" -w start >/dev/null

export PGHOST=$base PGPORT=$port PGUSER=postgres PGDATABASE=postgres
psql_q() { "$bindir/psql" -XAtq -c "$1"; }

# ---- wall time ---------------------------------------------------------------

median() { sort -n | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

wall_once() {
	local bin=$1 t0 t1
	psql_q checkpoint
	t0=$(date +%s.%N)
	"$bin" -i -s "$SCALE" -q >/dev/null 2>"$base/last.err" || {
		cat "$base/last.err" >&2
		exit 1
	}
	t1=$(date +%s.%N)
	# pgbench's own per-step timings, for the generation step's share
	sed -n 's/.*client-side generate \([0-9.]*\) s.*/\1/p' "$base/last.err" >>"$base/$2.gen"
	echo "$t1 - $t0" | bc -l
}

echo "init_bench: $(nproc) CPUs, wal_level=$WAL_LEVEL, -i -s $SCALE, $ROUNDS rounds"
"$THEIRS" -i -s "$SCALE" -q >/dev/null 2>&1	# warm-up: files, caches
: >"$base/ours.wall" >"$base/theirs.wall" >"$base/ours.gen" >"$base/theirs.gen"
for ((r = 1; r <= ROUNDS; r++)); do
	# alternate who goes first, so drift favours neither
	if ((r % 2)); then order="theirs ours"; else order="ours theirs"; fi
	for who in $order; do
		if [ "$who" = ours ]; then bin=$OURS; else bin=$THEIRS; fi
		t=$(wall_once "$bin" "$who")
		echo "$t" >>"$base/$who.wall"
		printf '  round %d %-6s %.3f s\n' "$r" "$who" "$t"
	done
done
ours_wall=$(median <"$base/ours.wall")
theirs_wall=$(median <"$base/theirs.wall")
ours_gen=$(median <"$base/ours.gen")
theirs_gen=$(median <"$base/theirs.gen")

# ---- client instructions -----------------------------------------------------

use_perf=no
if command -v perf >/dev/null &&
	perf stat -x, -e instructions:u true 2>&1 >/dev/null | grep -q '^[0-9]'; then
	use_perf=yes
fi

instructions() {
	local bin=$1 scale=$2
	if [ $use_perf = yes ]; then
		perf stat -x, -e instructions:u "$bin" -i -s "$scale" -I dtg -q 2>&1 >/dev/null |
			awk -F, '/instructions/ {print $1}'
	else
		valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			"$bin" -i -s "$scale" -I dtg -q 2>&1 >/dev/null |
			awk '/Collected :/ {print $NF}'
	fi
}

read -r lo hi <<<"$CG_SCALES"
per_scale() {
	local bin=$1 a b
	a=$(instructions "$bin" "$lo")
	b=$(instructions "$bin" "$hi")
	echo "($b - $a) / ($hi - $lo)" | bc -l
}
counter=callgrind
[ $use_perf = yes ] && counter="perf instructions:u"
if [ -n "${SKIP_INSTRUCTIONS:-}" ]; then
	ours_ins=0 theirs_ins=1
else
	ours_ins=$(per_scale "$OURS")
	theirs_ins=$(per_scale "$THEIRS")
fi

# ---- report ------------------------------------------------------------------

echo
printf 'wall time -i -s %d (median of %d): ours %.3f s, theirs %.3f s, ratio %.3f\n' \
	"$SCALE" "$ROUNDS" "$ours_wall" "$theirs_wall" "$(echo "$ours_wall / $theirs_wall" | bc -l)"
printf '  of which client-side generate: ours %.3f s, theirs %.3f s, ratio %.3f\n' \
	"$ours_gen" "$theirs_gen" "$(echo "$ours_gen / $theirs_gen" | bc -l)"
[ -n "${SKIP_INSTRUCTIONS:-}" ] && exit 0
printf 'client instructions per scale unit (%s, scales %s..%s): ours %.0f (%.1f/row), theirs %.0f (%.1f/row), ratio %.3f\n' \
	"$counter" "$lo" "$hi" "$ours_ins" "$(echo "$ours_ins / 100000" | bc -l)" \
	"$theirs_ins" "$(echo "$theirs_ins / 100000" | bc -l)" "$(echo "$ours_ins / $theirs_ins" | bc -l)"
