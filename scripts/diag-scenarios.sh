#!/usr/bin/env bash
# diag-scenarios.sh — pairs of real pgbench runs that differ by one injected
# cause, to develop and check --compare's diagnosis on.
#
#   scripts/diag-scenarios.sh OUTDIR [SCENARIO...]     (default: all of them)
#
# For each scenario, on a throwaway cluster (or two: major) of its own:
#   OUTDIR/NAME/base.json, new.json   --report-json reports (--server-stats on, -P 1)
#   OUTDIR/NAME/base.log, new.log     the runs' stdout and stderr
#   OUTDIR/NAME/compare.txt           pgbench --compare base.json new.json (stdout, stderr)
#   OUTDIR/NAME/cause.txt             the one difference, in words
#   OUTDIR/NAME/host.txt              the host's load average before and after (other
#                                     work on the machine blurs a pair: threads above all)
# and for network OUTDIR/network/injected_ms (the delay injected per
# transaction, 4), proxy-base.txt and proxy-new.txt (the delay the chunks
# had: t/lib/delayproxy.pl) and injected_measured_ms (what those say was
# added per transaction).
#
# The scenarios (one difference each; each a function sc_NAME below):
#   shared_buffers      128MB -> 256kB, -S at scale 5 (75 MB: fits the large, not the small)
#   checkpoints         max_wal_size 4GB, checkpoint_timeout 1h -> 32MB, 30s; tpcb-like (8 s warm-up)
#   work_mem            64MB -> 64kB, a script sorting 4000 rows of pgbench_accounts
#   synchronous_commit  off -> on, tpcb-like
#   hot_row             one update script, -D range=100000 -> range=1, -c 8
#   network             -S -c 2 through a proxy delaying each chunk 0 ms -> 2 ms each way
#   major               -S on PostgreSQL 15 -> 18 (scripts/pg-server)
#   threads             -S -c 8, -j 2 -> -j 1, a CPU hog per CPU (two here) beside both runs
#
# Every cluster: initdb's defaults (fsync on, synchronous_commit on,
# full_page_writes on, shared_buffers 128MB) unless the scenario sets
# otherwise, a Unix socket in its temporary directory, a random port; its
# settings for a side are written to side.conf (included by
# postgresql.conf) and the server restarted before the side's run, then
# the accounts table and index read into its buffers (pg_prewarm); sides
# that differ in pgbench's options alone (hot_row, network, threads) run
# one after the other on one start.  As root
# the server runs as the unprivileged "postgres" user.
#
# Environment:
#   PGBENCH       the pgbench to run (default: build-c/pgbench, else build/pgbench)
#   DIAG_T        seconds per run (default 20), after DIAG_WARMUP (default 2) of --warmup
#   DIAG_SERVER   the server of every scenario but major's new side: a major
#                 or a bin directory, through scripts/pg-server (default 15)
#   DIAG_NEW_MAJOR  major's new side (default 18)
#   DIAG_HOGS     CPU hogs (yes >/dev/null) beside the threads runs (default: one per CPU)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

all=(shared_buffers checkpoints work_mem synchronous_commit hot_row network major threads)

outdir=${1:?usage: diag-scenarios.sh OUTDIR [SCENARIO...]}
shift
want=("$@")
[ ${#want[@]} -gt 0 ] || want=("${all[@]}")
for s in "${want[@]}"; do
	[[ " ${all[*]} " == *" $s "* ]] || { echo "diag-scenarios: no scenario $s (${all[*]})" >&2; exit 2; }
done

pgbench=${PGBENCH:-}
if [ -z "$pgbench" ]; then
	for b in build-c build; do
		[ -x "$top/$b/pgbench" ] && { pgbench=$top/$b/pgbench; break; }
	done
fi
[ -x "$pgbench" ] || { echo "diag-scenarios: no pgbench (set PGBENCH)" >&2; exit 2; }
secs=${DIAG_T:-20}
warmup=${DIAG_WARMUP:-2}
base_bindir=$(bash "$top/scripts/pg-server" "${DIAG_SERVER:-15}")
psql=$(pg_config --bindir 2>/dev/null)/psql
[ -x "$psql" ] || psql=/usr/lib/postgresql/15/bin/psql

mkdir -p "$outdir"
chmod a+rx "$outdir"
work=$(mktemp -d /tmp/diag-work.XXXXXX)
chmod 755 "$work"

say() { echo "diag-scenarios: $*" >&2; }

# ---- clusters ---------------------------------------------------------------

# as_pg CMD...: a server command, as "postgres" when we are root
as_pg() {
	if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Running clusters (data directory|bin directory), proxies and hogs, for
# the cleanup on any exit.
# Each scenario runs in a subshell of its own, whose EXIT trap stops them.
clusters=()
pids=()
stop_all() {
	local c p
	for p in "${pids[@]+"${pids[@]}"}"; do kill "$p" 2>/dev/null || true; done
	for c in "${clusters[@]+"${clusters[@]}"}"; do
		as_pg "${c#*|}/pg_ctl" -D "${c%%|*}" -m immediate -w stop >/dev/null 2>&1 || true
	done
	pids=()
	clusters=()
}
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# cluster_new DIR BINDIR: initdb into DIR/data, socket DIR/sock, a random
# port; sets $HOST $PORT and the globals $DATA $BIN for the functions below
cluster_new() {
	local dir=$1
	BIN=$2
	DATA=$dir/data
	HOST=$dir/sock
	PORT=$((20000 + RANDOM % 30000))
	mkdir -p "$HOST"
	chmod 755 "$dir"
	if [ "$(id -u)" -eq 0 ]; then
		id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
		chown postgres "$dir" "$HOST"
	fi
	as_pg "$BIN/initdb" -D "$DATA" -A trust -U postgres -E UTF8 --locale=C >"$dir/initdb.log" 2>&1
	cat >>"$DATA/postgresql.conf" <<-CONF
	listen_addresses = ''
	unix_socket_directories = '$HOST'
	port = $PORT
	max_connections = 50
	log_min_messages = warning
	log_checkpoints = on
	include_if_exists = 'side.conf'
	CONF
	clusters+=("$DATA|$BIN")
}

# cluster_side "SETTINGS": the side's settings (lines of postgresql.conf),
# a restart, the accounts read into the buffers (what fits)
cluster_side() {
	printf '%s\n' "$1" >"$DATA/side.conf"
	chmod 644 "$DATA/side.conf"
	as_pg "$BIN/pg_ctl" -D "$DATA" -l "$DATA/../server.log" -w -t 120 -m fast restart >/dev/null 2>&1 ||
		as_pg "$BIN/pg_ctl" -D "$DATA" -l "$DATA/../server.log" -w -t 120 start >/dev/null
	if sql "create extension if not exists pg_prewarm" >/dev/null 2>&1; then
		sql "select pg_prewarm(c) from unnest(array['pgbench_accounts', 'pgbench_accounts_pkey']) c
		     where to_regclass(c) is not null" >/dev/null 2>&1 || true
	fi
}

cluster_stop() {
	as_pg "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null 2>&1 || true
	local keep=() c
	for c in "${clusters[@]}"; do [ "$c" = "$DATA|$BIN" ] || keep+=("$c"); done
	clusters=("${keep[@]+"${keep[@]}"}")
}

sql() { "$psql" -XAtq -v ON_ERROR_STOP=1 -h "$HOST" -p "$PORT" -U postgres -d postgres -c "$1"; }

# init SCALE: pgbench -i, then a checkpoint (so no run starts with one due)
init() {
	"$pgbench" -i -q -s "$1" -h "$HOST" -p "$PORT" -U postgres postgres >"$work/init.log" 2>&1 ||
		{ cat "$work/init.log" >&2; return 1; }
	sql checkpoint >/dev/null
}

# run SIDE [pgbench options...]: one measured run into $out/SIDE.json
# (connection to $HOST $PORT unless the options give one)
run() {
	local side=$1
	shift
	say "  $side: pgbench $*"
	"$pgbench" -h "$HOST" -p "$PORT" -U postgres -n -T "$secs" --warmup "${WARMUP:-$warmup}" -P 1 \
		--report-json "$out/$side.json" "$@" postgres >"$out/$side.log" 2>&1 ||
		{ say "  $side: pgbench failed (exit $?)"; tail -5 "$out/$side.log" >&2; return 1; }
	grep -E '^(tps|latency average)' "$out/$side.log" | sed 's/^/    /' >&2 || true
}

# ---- the scenarios: each a function, one difference between its sides ----

# shared_buffers: -S over 75 MB of accounts; at 128MB they stay in the
# buffers, at 256kB every lookup misses and reads them (from the OS's cache)
sc_shared_buffers() {
	echo "shared_buffers 128MB -> 256kB (select-only, scale 5)" >"$out/cause.txt"
	cluster_new "$1" "$base_bindir"
	cluster_side ""
	init 5
	cluster_side "shared_buffers = 128MB"
	run base -S -c 2 -j 2
	cluster_side "shared_buffers = 256kB"
	run new -S -c 2 -j 2
}

# checkpoints: the same tpcb-like run, checkpoints held off (base) and
# forced every 32MB of WAL and every 30 s (new).  A longer warm-up: the
# first change of a page after the restart's checkpoint writes it whole
# to the WAL (a full-page image) on both sides; the warm-up takes most of
# those out of the base's figures, so that the new side's are its own
# checkpoints'.
sc_checkpoints() {
	local WARMUP=$((warmup > 8 ? warmup : 8))
	echo "max_wal_size 4GB, checkpoint_timeout 1h -> max_wal_size 32MB, checkpoint_timeout 30s (tpcb-like)" >"$out/cause.txt"
	cluster_new "$1" "$base_bindir"
	cluster_side ""
	init 10
	cluster_side "max_wal_size = 4GB
checkpoint_timeout = 1h"
	run base -c 4 -j 2
	cluster_side "max_wal_size = 32MB
min_wal_size = 32MB
checkpoint_timeout = 30s"
	run new -c 4 -j 2
}

# work_mem: each transaction sorts 4000 rows with their filler (some 500
# kB); OFFSET keeps the sort unbounded (a LIMIT 1 alone is a top-N heap
# that never spills)
sc_work_mem() {
	echo "work_mem 64MB -> 64kB (a script sorting 4000 rows)" >"$out/cause.txt"
	cat >"$out/sort.sql" <<-'SQL'
	\set lo random(1, 400000)
	SELECT aid FROM pgbench_accounts WHERE aid BETWEEN :lo AND :lo + :n - 1 ORDER BY abalance DESC, filler OFFSET :n - 1 LIMIT 1;
	SQL
	cluster_new "$1" "$base_bindir"
	cluster_side ""
	init 5
	cluster_side "work_mem = 64MB"
	run base -f "$out/sort.sql" -D n=4000 -c 2 -j 2
	cluster_side "work_mem = 64kB"
	run new -f "$out/sort.sql" -D n=4000 -c 2 -j 2
}

# synchronous_commit: tpcb-like, each commit waits for its WAL flush (new)
# or not (base); fsync on in both
sc_synchronous_commit() {
	echo "synchronous_commit off -> on (tpcb-like, fsync on)" >"$out/cause.txt"
	cluster_new "$1" "$base_bindir"
	cluster_side ""
	init 10
	cluster_side "synchronous_commit = off"
	run base -c 4 -j 2
	cluster_side "synchronous_commit = on"
	run new -c 4 -j 2
}

# hot_row: eight clients updating one account each transaction (new) or
# one of 100000 at random (base): the same script, a -D variable apart
sc_hot_row() {
	echo "every transaction updates one same row (-D range=1) instead of one of 100000 (-D range=100000), -c 8" >"$out/cause.txt"
	cat >"$out/update.sql" <<-'SQL'
	\set aid random(1, :range)
	\set delta random(-5000, 5000)
	BEGIN;
	UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
	SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
	END;
	SQL
	cluster_new "$1" "$base_bindir"
	cluster_side ""
	init 5
	run base -f "$out/update.sql" -D range=100000 -c 8 -j 2
	run new -f "$out/update.sql" -D range=1 -c 8 -j 2
}

# network: -S -c 2 through t/lib/delayproxy.pl, each chunk held 0 ms
# (base) or 2 ms (new) each way: one round trip per transaction (simple
# protocol), 4 ms injected per transaction
sc_network() {
	local delay=2 side d
	echo "a network delay of ${delay} ms each way (a proxy; 0 ms on base), select-only -c 2" >"$out/cause.txt"
	echo $((2 * delay)) >"$out/injected_ms"
	cluster_new "$1" "$base_bindir"
	cluster_side ""
	init 5
	cluster_side ""
	mkdir -p "$1/proxy"
	for side in base new; do
		d=0
		[ "$side" = new ] && d=$delay
		perl "$top/t/lib/delayproxy.pl" "$1/proxy/.s.PGSQL.5999" "$HOST/.s.PGSQL.$PORT" "$d" \
			"$out/proxy-$side.txt" &
		pids+=($!)
		local _
		for _ in $(seq 100); do [ -S "$1/proxy/.s.PGSQL.5999" ] && break; sleep 0.05; done
		run "$side" -S -c 2 -j 2 -h "$1/proxy" -p 5999
		kill -TERM "${pids[-1]}"
		wait "${pids[-1]}" || true
		unset 'pids[-1]'
		rm -f "$1/proxy/.s.PGSQL.5999"
		sed "s/^/    proxy: /" "$out/proxy-$side.txt" >&2 || true
	done
	# what the proxy's own account says was added: two chunks' extra delay
	# a transaction (the query and its answer; an answer written in two
	# chunks has them held side by side, not one after the other)
	awk '{ d[FILENAME ~ /new/] = $4 } END { printf "%.3f\n", 2 * (d[1] - d[0]) }' \
		"$out/proxy-base.txt" "$out/proxy-new.txt" >"$out/injected_measured_ms"
}

# major: the same -S run on the base server (15) and on 18
sc_major() {
	local newbin
	newbin=$(bash "$top/scripts/pg-server" "${DIAG_NEW_MAJOR:-18}") ||
		{ say "major: no PostgreSQL ${DIAG_NEW_MAJOR:-18} (bash scripts/deps.sh servers)"; return 1; }
	echo "PostgreSQL $("$base_bindir/postgres" -V | awk '{print $3}') -> $("$newbin/postgres" -V | awk '{print $3}') (select-only, scale 5)" >"$out/cause.txt"
	cluster_new "$1/base" "$base_bindir"
	cluster_side ""
	init 5
	cluster_side ""
	run base -S -c 2 -j 2
	cluster_stop
	cluster_new "$1/new" "$newbin"
	cluster_side ""
	init 5
	cluster_side ""
	run new -S -c 2 -j 2
}

# threads: -S -c 8 with a CPU hog per CPU beside both runs; eight clients
# on two threads (base) or one (new): the one client thread gets a smaller
# share of the CPUs.  Of every pair the most sensitive to other work on
# the host: on an idle 2-CPU machine tps fell from 22k-28k to 15k, under a
# load of 13 (a build beside it) the two sides were alike (host.txt).
sc_threads() {
	local hogs=() _
	echo "-j 2 -> -j 1 (select-only -c 8, ${DIAG_HOGS:-$(nproc)} CPU hogs beside both runs)" >"$out/cause.txt"
	cluster_new "$1" "$base_bindir"
	cluster_side ""
	init 5
	cluster_side ""
	for _ in $(seq "${DIAG_HOGS:-$(nproc)}"); do
		yes >/dev/null &
		hogs+=($!)
		pids+=($!)
	done
	run base -S -c 8 -j 2
	run new -S -c 8 -j 1
	kill "${hogs[@]}" 2>/dev/null || true
	wait "${hogs[@]}" 2>/dev/null || true
	pids=()
}

# ---- main -------------------------------------------------------------------

failed=()
for s in "${want[@]}"; do
	out=$outdir/$s
	rm -rf "$out"
	mkdir -p "$out"
	say "$s (load average $(cut -d' ' -f1-3 /proc/loadavg))"
	echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >"$out/host.txt"
	t0=$(date +%s)
	set +e
	(
		set -e
		trap stop_all EXIT
		trap 'exit 130' INT TERM
		"sc_$s" "$work/$s"
	)
	rc=$?
	set -e
	if [ $rc -eq 0 ]; then
		"$pgbench" --compare "$out/base.json" "$out/new.json" >"$out/compare.txt" 2>&1 || true
	else
		failed+=("$s")
	fi
	[ $rc -ne 130 ] || exit 130
	echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/host.txt"
	rm -rf "${work:?}/$s"
	chmod -R a+rX "$out"
	say "$s: $(($(date +%s) - t0)) s"
done
chmod -R a+rX "$outdir"
if [ ${#failed[@]} -gt 0 ]; then
	say "failed: ${failed[*]}"
	exit 1
fi
