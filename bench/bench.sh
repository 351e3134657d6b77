#!/usr/bin/env bash
# bench.sh — compare our pgbench with the system pgbench on the same
# workloads in one run, alternating the two binaries, and print one table of
# medians and ratios (ours/theirs).  Run by hand, never in CI; see
# bench/README.md for what each figure means and how far to trust it.
#
#   bench/bench.sh [options] [OURS]        OURS defaults to $PGBENCH_OURS,
#                                          then build/src/pgbench
# shellcheck source-path=SCRIPTDIR disable=SC2034 # BM_* are read by lib/measure.sh
set -euo pipefail

# The whole script is one brace group, read before any of it runs, so that
# editing this file during a 15-minute run cannot derail the run.
{
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/measure.sh
. "$top/bench/lib/measure.sh"
# shellcheck source=lib/report.sh
. "$top/bench/lib/report.sh"

ALL_WORKLOADS="select1 select1-plr select-only tpcb-like tpcb-prepared ro16 pipeline10 reconnect c500 init init-j2"

usage() {
	cat <<EOF
usage: bench/bench.sh [options] [OURS]

Runs OURS (default \$PGBENCH_OURS, else build/src/pgbench) and THEIRS (the
system pgbench) alternately on: $ALL_WORKLOADS.
Throughput figures are medians of --rounds runs of --duration seconds each;
instructions/tx (callgrind) and syscalls/tx (strace) are differences of two
-t sizes, medians of --reps pairs.

options:
  --quick              smoke test: 2 rounds of 2 s, 1 callgrind/strace pair
  --rounds N           throughput rounds per binary and workload (default 8)
  --duration S         seconds per throughput round, pgbench -T (default 5)
  --reps N             callgrind and strace pairs per binary (default 3)
  --clients N          clients of the ordinary workloads (default 8)
  --many N             clients of the c500 workload (default 500)
  --only LIST          comma-separated workloads to run (default all)
  --theirs PATH        the reference pgbench (default $THEIRS_DEFAULT)
  --scale N            pgbench -i scale for select-only and tpcb-like (default 10)
  --init-scale N       scale of the init and init-j2 workloads (default 50)
  --init-jobs N        -j of our side in init-j2 (default 2)
  --no-callgrind       skip the instruction counts
  --no-strace          skip the system call counts
  --no-pin             do not pin server and client to separate CPUs
  --server-cpus LIST   taskset CPU list for the server (default 0)
  --client-cpus LIST   taskset CPU list for the client (default 1)
  --existing           use the server named by the PG* environment instead of
                       starting a throwaway cluster (no server pinning; note
                       that pgbench -i recreates the pgbench_* tables there)
  --out DIR            keep logs and raw figures here (default a new /tmp dir)
  --init               afterwards, also run bench/init_bench.sh OURS THEIRS
                       (pgbench -i speed; its own cluster; 2 rounds with --quick)
  -h, --help           this text
EOF
}

THEIRS_DEFAULT=/usr/lib/postgresql/15/bin/pgbench
THEIRS=${PGBENCH_THEIRS:-$THEIRS_DEFAULT}
OURS=${PGBENCH_OURS:-}
ROUNDS=8 DURATION=5 REPS=3 CLIENTS=8 MANY=500 SCALE=10 INIT_SCALE=50 INIT_JOBS=2
ONLY=$ALL_WORKLOADS
DO_CALLGRIND=1 DO_STRACE=1 PIN=1 EXISTING=0 RUN_INIT=0 QUICK=0
SERVER_CPUS=0 CLIENT_CPUS=1
OUT=

while [ $# -gt 0 ]; do
	case $1 in
	--quick) ROUNDS=2 DURATION=2 REPS=1 QUICK=1 ;;
	--rounds) ROUNDS=$2; shift ;;
	--duration) DURATION=$2; shift ;;
	--reps) REPS=$2; shift ;;
	--clients) CLIENTS=$2; shift ;;
	--many) MANY=$2; shift ;;
	--only) ONLY=${2//,/ }; shift ;;
	--theirs) THEIRS=$2; shift ;;
	--scale) SCALE=$2; shift ;;
	--init-scale) INIT_SCALE=$2; shift ;;
	--init-jobs) INIT_JOBS=$2; shift ;;
	--no-callgrind) DO_CALLGRIND=0 ;;
	--no-strace) DO_STRACE=0 ;;
	--no-pin) PIN=0 ;;
	--server-cpus) SERVER_CPUS=$2; shift ;;
	--client-cpus) CLIENT_CPUS=$2; shift ;;
	--existing) EXISTING=1 ;;
	--out) OUT=$2; shift ;;
	--init) RUN_INIT=1 ;;
	-h|--help) usage; exit 0 ;;
	-*) echo "bench.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
	*) OURS=$1 ;;
	esac
	shift
done

say() { printf '%s\n' "$*" >&2; }
die() { say "bench.sh: $*"; exit 2; }

# --- the binaries -----------------------------------------------------------

if [ -z "$OURS" ]; then
	OURS=$top/build/src/pgbench
	[ -x "$OURS" ] || [ ! -x "$top/build/pgbench" ] || OURS=$top/build/pgbench
fi
[ -x "$OURS" ] || die "our pgbench '$OURS' is not an executable; build it (meson setup build && ninja -C build) or pass its path"
[ -x "$THEIRS" ] || die "the system pgbench '$THEIRS' is missing; pass --theirs PATH"
OURS=$(realpath "$OURS") THEIRS=$(realpath "$THEIRS")

for w in $ONLY; do
	case " $ALL_WORKLOADS " in *" $w "*) ;; *) die "unknown workload '$w' (known: $ALL_WORKLOADS)" ;; esac
done

# --- the tools ----------------------------------------------------------------

need_tool() {  # need_tool COMMAND DEBIAN-PACKAGE: install it when root and apt are there
	command -v "$1" >/dev/null && return 0
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
		say "installing $2 for $1 ..."
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" >/dev/null 2>&1 || true
	fi
	command -v "$1" >/dev/null
}

BM_GNU_TIME=
if [ "${BENCH_NO_GNU_TIME:-0}" != 1 ] && need_tool /usr/bin/time time &&
	/usr/bin/time --version 2>&1 | grep -q GNU; then
	BM_GNU_TIME=/usr/bin/time
else
	say "note: no GNU time; reading peak RSS and CPU time from /proc instead"
fi
if [ $DO_CALLGRIND = 1 ] && ! need_tool valgrind valgrind; then
	say "note: no valgrind; skipping instruction counts"; DO_CALLGRIND=0
fi
if [ $DO_STRACE = 1 ] && ! need_tool strace strace; then
	say "note: no strace; skipping system call counts"; DO_STRACE=0
fi
command -v taskset >/dev/null || PIN=0
[ "$(nproc)" -ge 2 ] || PIN=0
BM_PIN_CLIENT=()
[ $PIN = 1 ] && BM_PIN_CLIENT=(taskset -c "$CLIENT_CPUS")
BM_DET_LIMIT=900

# -c 500 needs a descriptor per connection, plus the usual ones.
ulimit -n 4096 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# --- output directory and server -------------------------------------------------

if [ -z "$OUT" ]; then
	OUT=$(mktemp -d /tmp/pgbench-bench.XXXXXX)
else
	mkdir -p "$OUT"
fi
OUT=$(realpath "$OUT")
BR_FILE=$OUT/results.tsv
: >"$BR_FILE"
FAILURES=$OUT/failures.txt
: >"$FAILURES"

CLUSTER=
cleanup() {
	if [ -n "$CLUSTER" ]; then
		cluster_stop "$CLUSTER"
		CLUSTER=
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ $EXISTING = 0 ]; then
	# shellcheck source=../scripts/cluster.sh
	. "$top/scripts/cluster.sh"
	CLUSTER=$(mktemp -d /tmp/pgbench-bench-cluster.XXXXXX)
	# The server inherits the affinity of the shell that starts it, so pin
	# this shell for the start only: every backend forked later stays there.
	affinity=$(taskset -pc $BASHPID | awk '{print $NF}')
	[ $PIN = 1 ] && taskset -pc "$SERVER_CPUS" $BASHPID >/dev/null
	cluster_start "$CLUSTER" "max_connections = $((MANY * 2 + 100))
shared_buffers = 512MB
max_wal_size = 8GB
checkpoint_timeout = 1h
wal_level = minimal
max_wal_senders = 0
autovacuum = off" || {
		cp "$CLUSTER/server.log" "$OUT/" 2>/dev/null
		die "could not start a cluster (log: $OUT/server.log)"
	}
	taskset -pc "$affinity" $BASHPID >/dev/null
fi

# --- workloads ---------------------------------------------------------------------

printf 'SELECT 1;\n' >"$OUT/select1.sql"
{
	printf '\\startpipeline\n'
	for _ in 1 2 3 4 5 6 7 8 9 10; do printf 'SELECT 1;\n'; done
	printf '\\endpipeline\n'
} >"$OUT/pipeline10.sql"
for _ in $(seq 1 16); do
	printf '\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n'
done >"$OUT/ro16.sql"

# wl_setup NAME: WL_ARGS (pgbench arguments but -T/-t), WL_T1 < WL_T2 (-t
# sizes for the instruction and syscall differences), WL_CONN (which
# connection-time line of the report to keep, if any), WL_DB (needs -i data),
# WL_TPLUS (seconds added to -T: pgbench's clock starts before it connects,
# and 500 connections take a second or two), WL_T2_CG (a larger -t for
# callgrind where the event loop's cost per transaction varies with timing).
wl_setup() {
	WL_CONN='' WL_DB=0 WL_TPLUS=0
	case $1 in
	select1)     WL_ARGS=(-n -f "$OUT/select1.sql" -M prepared -c "$CLIENTS" -j 1); WL_T1=500 WL_T2=1500 ;;
	# select1 with progress, per-transaction logs and per-command latencies:
	# compare its ratio to select1 for each side (the cost of -P 1 -l -r)
	select1-plr) WL_ARGS=(-n -f "$OUT/select1.sql" -M prepared -c "$CLIENTS" -j 1 -P 1 -l -r
	                      --log-prefix "$OUT/plr-log"); WL_T1=500 WL_T2=1500 ;;
	select-only) WL_ARGS=(-S -M prepared -c "$CLIENTS" -j 1); WL_T1=500 WL_T2=1500 WL_DB=1 ;;
	tpcb-like)   WL_ARGS=(-b tpcb-like --random-seed=5432 -c "$CLIENTS" -j 1); WL_T1=100 WL_T2=300 WL_DB=1 ;;
	tpcb-prepared) WL_ARGS=(-b tpcb-like -M prepared --random-seed=5432 -c "$CLIENTS" -j 1); WL_T1=100 WL_T2=300 WL_DB=1 ;;
	# read-only, 16 statements a transaction, each with its own random aid
	ro16)        WL_ARGS=(-n -f "$OUT/ro16.sql" -M prepared -D scale="$SCALE" --random-seed=5432 -c "$CLIENTS" -j 1); WL_T1=50 WL_T2=150 WL_DB=1 ;;
	pipeline10)  WL_ARGS=(-n -f "$OUT/pipeline10.sql" -M prepared -c "$CLIENTS" -j 1); WL_T1=200 WL_T2=600 ;;
	reconnect)   WL_ARGS=(-n -f "$OUT/select1.sql" -C -c 4 -j 1); WL_T1=40 WL_T2=120 WL_CONN=average ;;
	c500)        WL_ARGS=(-n -f "$OUT/select1.sql" -M prepared -c "$MANY" -j 1); WL_T1=10 WL_T2=60 WL_CONN=initial WL_TPLUS=3 ;;
	# init: pgbench -i alone, wall time only, in its own database; init-j2:
	# ours loads with --init-jobs connections, theirs as always (pgbench
	# refuses -j with -i)
	init)        WL_ARGS=(-i -q -s "$INIT_SCALE"); WL_T1=0 WL_T2=0 ;;
	init-j2)     WL_ARGS=(-i -q -s "$INIT_SCALE"); WL_T1=0 WL_T2=0 ;;
	esac
	WL_T2_CG=$WL_T2
	[ "$1" = c500 ] && WL_T2_CG=110
	return 0
}

bin_of() { if [ "$1" = ours ]; then echo "$OURS"; else echo "$THEIRS"; fi; }

# Alternate which binary goes first, so slow drifts of the machine (caches,
# table growth, neighbours) do not favour one side.
order_of() { if [ $(($1 % 2)) -eq 1 ]; then echo "ours theirs"; else echo "theirs ours"; fi; }

declare -A OURS_FAILED=()

# fail_side WORKLOAD SIDE WHY LOG: record FAILED for every metric this
# workload measures; for ours also stop running it on this workload.
fail_side() {
	local w=$1 side=$2 m
	for m in tps cpu_us rss_kb; do br_add "$w" $m "$side" FAILED; done
	[ -n "$WL_CONN" ] && br_add "$w" conn_ms "$side" FAILED
	[ $DO_CALLGRIND = 1 ] && br_add "$w" instr "$side" FAILED
	if [ $DO_STRACE = 1 ]; then
		br_add "$w" syscalls "$side" FAILED
		br_add "$w" syscalls_io "$side" FAILED
	fi
	[ "$side" = ours ] && OURS_FAILED[$w]=1
	printf '%s %s: %s (log %s)\n' "$w" "$side" "$3" "$4" >>"$FAILURES"
	say "  $w $side FAILED: $3"
}

# The -l logs of select1-plr grow by ~100 MB a round: keep only the last.
drop_txlogs() { rm -f "$OUT"/plr-log.*; }

skip_side() { [ "$2" = ours ] && [ -n "${OURS_FAILED[$1]:-}" ]; }

# throughput WORKLOAD: ROUNDS alternating -T runs per binary, after one
# discarded warm-up run of the system pgbench: the first run on a fresh
# workload is slower (cold caches), and would penalize whoever goes first.
throughput() {
	local w=$1 r side log conn cpu_us
	${BM_PIN_CLIENT[@]+"${BM_PIN_CLIENT[@]}"} timeout -k 10 300 \
		"$THEIRS" "${WL_ARGS[@]}" -T $((1 + WL_TPLUS)) >"$OUT/$w.warmup.log" 2>&1 || true
	for r in $(seq 1 "$ROUNDS"); do
		for side in $(order_of "$r"); do
			skip_side "$w" "$side" && continue
			drop_txlogs
			log=$OUT/$w.$side.tps.$r.log
			if ! bm_timed "$(bin_of "$side")" "$log" $((DURATION + 300)) "${WL_ARGS[@]}" -T $((DURATION + WL_TPLUS)); then
				fail_side "$w" "$side" "$BM_WHY" "$log"
				continue
			fi
			br_add "$w" tps "$side" "$BM_TPS"
			[ -n "$BM_RSS_KB" ] && br_add "$w" rss_kb "$side" "$BM_RSS_KB"
			cpu_us=
			if [ -n "$BM_CPU_S" ]; then
				cpu_us=$(awk -v c="$BM_CPU_S" -v n="$BM_PROCESSED" 'BEGIN{printf "%.3f", c * 1e6 / n}')
				br_add "$w" cpu_us "$side" "$cpu_us"
			fi
			conn=
			case $WL_CONN in
			initial) conn=$BM_CONN_INITIAL ;;
			average) conn=$BM_CONN_AVERAGE ;;
			esac
			[ -n "$conn" ] && br_add "$w" conn_ms "$side" "$conn"
			say "  $w round $r/$ROUNDS $side: tps $BM_TPS, cpu ${cpu_us:-?} us/tx, rss ${BM_RSS_KB:-?} kB${conn:+, connect $conn ms}"
		done
	done
}

# per_tx WORKLOAD TOOL T2: REPS pairs of runs with -t WL_T1 and -t T2 under
# TOOL (bm_callgrind or bm_strace) per binary.  Each count the tool reports
# gives (count2 - count1) / (tx2 - tx1): process start-up, connection set-up
# and exit cancel out.
per_tx() {
	local w=$1 tool=$2 t2=$3 r side log1 log2 n1 kv m per shown
	local -A first
	for r in $(seq 1 "$REPS"); do
		for side in $(order_of "$r"); do
			skip_side "$w" "$side" && continue
			drop_txlogs
			log1=$OUT/$w.$side.${tool#bm_}.$r.t$WL_T1.log
			log2=$OUT/$w.$side.${tool#bm_}.$r.t$t2.log
			if ! $tool "$(bin_of "$side")" "$log1" "${WL_ARGS[@]}" -t "$WL_T1"; then
				fail_side "$w" "$side" "$BM_WHY" "$log1"; continue
			fi
			first=() n1=$BM_PROCESSED
			for kv in $BM_COUNTS; do first[${kv%%=*}]=${kv#*=}; done
			if ! $tool "$(bin_of "$side")" "$log2" "${WL_ARGS[@]}" -t "$t2"; then
				fail_side "$w" "$side" "$BM_WHY" "$log2"; continue
			fi
			if [ "$BM_PROCESSED" -le "$n1" ]; then
				fail_side "$w" "$side" "transaction counts $n1 and $BM_PROCESSED do not grow" "$log2"; continue
			fi
			shown=
			for kv in $BM_COUNTS; do
				m=${kv%%=*}
				per=$(awk -v a="${first[$m]}" -v b="${kv#*=}" -v n1="$n1" -v n2="$BM_PROCESSED" \
					'BEGIN{printf "%.4f", (b - a) / (n2 - n1)}')
				br_add "$w" "$m" "$side" "$per"
				shown="$shown $m $per/tx (${first[$m]} @ $n1 tx, ${kv#*=} @ $BM_PROCESSED tx);"
			done
			say "  $w ${tool#bm_} pair $r/$REPS $side:${shown%;}"
		done
	done
}

# init_wall WORKLOAD: ROUNDS alternating runs of pgbench -i per binary, in the
# database $INIT_DB (a checkpoint first, so that neither side pays for the
# other's dirty buffers); records the wall seconds as init_s.
INIT_DB=pgbench_bench_init
init_wall() {
	local w=$1 r side log t0 t1 extra
	psql_bench postgres "drop database if exists $INIT_DB" && psql_bench postgres "create database $INIT_DB" ||
		{ fail_side "$w" ours "could not create database $INIT_DB" -; return; }
	for r in $(seq 1 "$ROUNDS"); do
		for side in $(order_of "$r"); do
			skip_side "$w" "$side" && continue
			extra=()
			[ "$w" = init-j2 ] && [ "$side" = ours ] && extra=(-j "$INIT_JOBS")
			log=$OUT/$w.$side.$r.log
			psql_bench "$INIT_DB" checkpoint
			t0=$(date +%s.%N)
			if ! timeout -k 10 3600 "$(bin_of "$side")" "${WL_ARGS[@]}" ${extra[@]+"${extra[@]}"} "$INIT_DB" >"$log" 2>&1; then
				fail_side "$w" "$side" "pgbench -i failed" "$log"; continue
			fi
			t1=$(date +%s.%N)
			br_add "$w" init_s "$side" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b - a}')"
			say "  $w round $r/$ROUNDS $side: $(tail -n1 "$log")"
		done
	done
}

psql_bench() {  # psql_bench DB SQL
	local psql=psql
	[ -n "$CLUSTER" ] && psql=$(cluster_bindir)/psql
	"$psql" -XAtq -d "$1" -c "$2" >/dev/null
}

# --- run -------------------------------------------------------------------------------

started=$SECONDS
say "ours:   $OURS"
say "theirs: $THEIRS"
[ "$OURS" = "$THEIRS" ] && say "note: ours and theirs are the same binary: every ratio should be near 1"
say "rounds $ROUNDS x ${DURATION}s, $REPS callgrind/strace pair(s), pinning $([ $PIN = 1 ] && echo "server $SERVER_CPUS, client $CLIENT_CPUS" || echo off), logs in $OUT"

need_db=0
for w in $ONLY; do wl_setup "$w"; [ $WL_DB = 1 ] && need_db=1; done
if [ $need_db = 1 ]; then
	say "initializing scale $SCALE with the system pgbench ..."
	"$THEIRS" -i -s "$SCALE" -q >"$OUT/init.log" 2>&1 || die "pgbench -i failed, see $OUT/init.log"
fi

for w in $ONLY; do
	wl_setup "$w"
	say "== $w: pgbench ${WL_ARGS[*]}"
	case $w in init|init-j2) init_wall "$w"; continue ;; esac
	throughput "$w"
	[ $DO_CALLGRIND = 1 ] && per_tx "$w" bm_callgrind "$WL_T2_CG"
	[ $DO_STRACE = 1 ] && per_tx "$w" bm_strace "$WL_T2"
done

echo
echo "ours:   $OURS"
echo "theirs: $THEIRS"
echo "ratio = ours/theirs.  tps: higher is better; every other metric: lower is better."
echo "tps, CPU and connect times swing +-20% on shared machines; instructions/tx,"
echo "syscalls/tx and peak RSS are the repeatable figures."
echo
# shellcheck disable=SC2086
br_table $ONLY
if [ -s "$FAILURES" ]; then
	echo
	echo "failures:"
	sed 's/^/  /' "$FAILURES"
fi
echo
echo "raw figures: $BR_FILE; logs: $OUT; took $((SECONDS - started)) s"

if [ $RUN_INIT = 1 ]; then
	if [ -f "$top/bench/init_bench.sh" ]; then
		cleanup
		echo
		if [ $QUICK = 1 ]; then
			ROUNDS=2 bash "$top/bench/init_bench.sh" "$OURS" "$THEIRS"
		else
			bash "$top/bench/init_bench.sh" "$OURS" "$THEIRS"
		fi
	else
		say "note: bench/init_bench.sh is not there (yet); skipped --init"
	fi
fi
exit 0
}
