# shellcheck shell=bash disable=SC2034
# measure.sh — one pgbench run under one measuring tool, and the parsing of
# what it printed.  Sourced by bench.sh; every function fills BM_* globals and
# returns non-zero when the run failed (bad exit code, missing report lines,
# fewer transactions than asked), so the caller can print FAILED and go on.
#
# (SC2034: the BM_* outputs are read by bench.sh.)
# Inputs set by the caller:
#   BM_PIN_CLIENT  array: prefix that pins the client (taskset -c N) or empty
#   BM_GNU_TIME    path of GNU time, or empty to fall back to /proc polling
#   BM_DET_LIMIT   seconds a callgrind/strace run may take before it is killed

# bm_report_field LOG WHAT: one figure from pgbench's final report.
bm_report_field() {
	local log=$1 what=$2
	case $what in
	tps)       awk '/^tps = /{print $3; exit}' "$log" ;;
	processed) awk -F': ' '/^number of transactions actually processed: /{split($2, a, "/"); print a[1]; exit}' "$log" ;;
	initial)   awk '/^initial connection time = /{print $5; exit}' "$log" ;;
	average)   awk '/^average connection time = /{print $5; exit}' "$log" ;;
	esac
}

# bm_check_report LOG RC: a run counts only if pgbench exited 0 and printed
# a report with a positive transaction count.  Sets BM_PROCESSED, BM_WHY.
bm_check_report() {
	local log=$1 rc=$2
	BM_PROCESSED=$(bm_report_field "$log" processed)
	BM_WHY=
	if [ "$rc" -ne 0 ]; then
		BM_WHY="exit status $rc"
	elif [ -z "$BM_PROCESSED" ] || [ "$BM_PROCESSED" -le 0 ] 2>/dev/null; then
		BM_WHY="no transactions reported"
	fi
	if [ -n "$BM_WHY" ]; then
		local first
		first=$(grep -m1 -iE 'error|fatal|abort|not found|unrecognized|invalid' "$log" 2>/dev/null || true)
		[ -n "$first" ] && BM_WHY="$BM_WHY: $first"
		return 1
	fi
	return 0
}

# bm_timed BIN LOG LIMIT ARGS...: a throughput run.  Sets BM_TPS,
# BM_PROCESSED, BM_CONN_INITIAL, BM_CONN_AVERAGE (ms), BM_RSS_KB (peak
# resident set) and BM_CPU_S (user + system seconds of the client).
bm_timed() {
	local bin=$1 log=$2 limit=$3 rc=0
	shift 3
	BM_RSS_KB='' BM_CPU_S=''
	if [ -n "$BM_GNU_TIME" ]; then
		${BM_PIN_CLIENT[@]+"${BM_PIN_CLIENT[@]}"} timeout -k 10 "$limit" \
			"$BM_GNU_TIME" -o "$log.time" -f '%M %U %S' "$bin" "$@" >"$log" 2>&1 || rc=$?
		# GNU time puts "Command exited with non-zero status" first; figures are last.
		read -r BM_RSS_KB user sys < <(tail -n1 "$log.time" 2>/dev/null) || true
		[ -n "${sys:-}" ] && BM_CPU_S=$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.3f", u + s}')
	else
		bm_polled "$bin" "$log" "$limit" "$@" || rc=$?
	fi
	bm_check_report "$log" "$rc" || return 1
	BM_TPS=$(bm_report_field "$log" tps)
	BM_CONN_INITIAL=$(bm_report_field "$log" initial)
	BM_CONN_AVERAGE=$(bm_report_field "$log" average)
	if [ -z "$BM_TPS" ]; then
		BM_WHY="no tps line in the report"
		return 1
	fi
	return 0
}

# bm_polled BIN LOG LIMIT ARGS...: without GNU time.  A subshell runs the
# client and, once it has reaped it, prints its CPU time with "times"; the
# peak RSS is the last VmHWM seen while polling /proc (bash reaps children on
# its own, so the exited process cannot be read afterwards).
bm_polled() {
	local bin=$1 log=$2 limit=$3 runner pid='' hwm=0 v deadline
	shift 3
	(
		${BM_PIN_CLIENT[@]+"${BM_PIN_CLIENT[@]}"} "$bin" "$@" >"$log" 2>&1 &
		echo $! >"$log.pid"
		rc=0
		wait $! || rc=$?
		times >"$log.times"
		exit $rc
	) &
	runner=$!
	deadline=$((SECONDS + limit))
	while kill -0 "$runner" 2>/dev/null; do
		[ -z "$pid" ] && pid=$(cat "$log.pid" 2>/dev/null || true)
		if [ -n "$pid" ]; then
			v=$(awk '/^VmHWM:/{print $2}' "/proc/$pid/status" 2>/dev/null || true)
			[ -n "$v" ] && hwm=$v
			if [ $SECONDS -ge "$deadline" ]; then kill -KILL "$pid" 2>/dev/null || true; fi
		fi
		sleep 0.05
	done
	BM_RSS_KB=$hwm
	# Second line of "times": user and system time of reaped children, as 0m1.234s.
	BM_CPU_S=$(awk 'NR == 2 {
		for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); sum += t[1] * 60 + t[2] }
		printf "%.3f", sum }' "$log.times" 2>/dev/null || true)
	wait "$runner"
}

# bm_callgrind BIN LOG ARGS...: user-space instructions of the whole client
# process (all threads, libpq and libc included), and their split by who
# executes them (cg_split.pl: the program's own code with its direct libc
# calls, the allocator, libpq and below).  Sets BM_PROCESSED and
# BM_COUNTS="instr=N own=N alloc=N libpq=N".
bm_callgrind() {
	local bin=$1 log=$2 rc=0 count split
	shift 2
	${BM_PIN_CLIENT[@]+"${BM_PIN_CLIENT[@]}"} timeout -k 10 "$BM_DET_LIMIT" \
		valgrind --tool=callgrind --callgrind-out-file="$log.cg" --log-file="$log.vg" \
		"$bin" "$@" >"$log" 2>&1 || rc=$?
	split=$(perl "$(dirname "${BASH_SOURCE[0]}")/cg_split.pl" "$log.cg" 2>>"$log.vg" || true)
	rm -f "$log.cg"*
	bm_check_report "$log" "$rc" || return 1
	count=$(awk '/Collected :/{print $NF; exit}' "$log.vg" 2>/dev/null)
	if [ -z "$count" ]; then
		BM_WHY="no callgrind summary in $log.vg"
		return 1
	fi
	BM_COUNTS="instr=$count"
	# total own alloc libpq; the total is callgrind's own, above
	[ -n "$split" ] && BM_COUNTS="$BM_COUNTS $(awk '{printf "own=%s alloc=%s libpq=%s", $2, $3, $4}' <<<"$split")"
	return 0
}

# bm_strace BIN LOG ARGS...: system calls of the client, all threads.  Sets
# BM_PROCESSED and BM_COUNTS="syscalls=ALL syscalls_io=N": ALL is the calls
# column of strace's total line; N leaves out failed calls (a read that
# found no data yet) and waits (poll, futex...), the two counts that depend
# on timing, so it repeats exactly from run to run.
bm_strace() {
	local bin=$1 log=$2 rc=0 counts
	shift 2
	${BM_PIN_CLIENT[@]+"${BM_PIN_CLIENT[@]}"} timeout -k 10 "$BM_DET_LIMIT" \
		strace -f -c -o "$log.st" "$bin" "$@" >"$log" 2>&1 || rc=$?
	bm_check_report "$log" "$rc" || return 1
	# Rows: % time, seconds, usecs/call, calls, [errors], name.
	counts=$(awk '
		$1 ~ /^[0-9.]+$/ && $4 ~ /^[0-9]+$/ {
			if ($NF == "total") { all = $4; next }
			errors = (NF == 6) ? $5 : 0
			if ($NF !~ /^(poll|ppoll|select|pselect6|epoll_wait|epoll_pwait|epoll_pwait2|futex|nanosleep|clock_nanosleep)$/)
				io += $4 - errors
		}
		END { if (all != "") printf "syscalls=%d syscalls_io=%d\n", all, io }' "$log.st" 2>/dev/null)
	if [ -z "$counts" ]; then
		BM_WHY="no strace summary in $log.st"
		return 1
	fi
	BM_COUNTS=$counts
	return 0
}
