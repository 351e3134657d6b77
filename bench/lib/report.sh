# shellcheck shell=bash
# report.sh — where bench.sh keeps its figures and how it sums them up.
# Every measurement is one line of $BR_FILE:  workload TAB metric TAB side TAB value
# (side is "ours" or "theirs", value a number or FAILED).  The final table
# takes, per workload, metric and side, the median of the values, or FAILED
# if any of them failed, and divides ours by theirs.

# The metrics in table order: key, label, printf format of the values.
BR_METRICS=(
	"tps|tps (median)|%.1f"
	"cpu_us|client CPU us/tx (median)|%.2f"
	"rss_kb|peak RSS kB (median)|%.0f"
	"conn_ms|connect time ms (median)|%.2f"
	"instr|instructions/tx (callgrind)|%.1f"
	"own|  own code + direct libc calls|%.1f"
	"alloc|  allocator (malloc family)|%.1f"
	"libpq|  libpq and below|%.1f"
	"syscalls|syscalls/tx (strace)|%.3f"
	"syscalls_io|syscalls/tx excl. waits+errors|%.3f"
	"init_s|init wall s (median)|%.2f"
)

# br_add WORKLOAD METRIC SIDE VALUE
br_add() {
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$BR_FILE"
}

# br_summary WORKLOAD METRIC SIDE: the median, FAILED, or nothing if never measured.
br_summary() {
	awk -F'\t' -v w="$1" -v m="$2" -v s="$3" '
		$1 == w && $2 == m && $3 == s { if ($4 == "FAILED") failed = 1; else v[++n] = $4 + 0 }
		END {
			if (failed) { print "FAILED"; exit }
			if (n == 0) exit
			# insertion sort: a handful of rounds at most
			for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
			printf "%.6f\n", (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		}' "$BR_FILE"
}

# br_fmt FORMAT VALUE: a number in FORMAT; words (FAILED, -) as they are.
# shellcheck disable=SC2059 # the format comes from BR_METRICS
br_fmt() {
	case $2 in
	'' ) printf -- '-' ;;
	*[!0-9.eE+-]*) printf '%s' "$2" ;;
	*) printf "$1" "$2" ;;
	esac
}

# br_ratio OURS THEIRS: ours/theirs to three decimals, or "-" when not a number pair.
br_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a !~ /^[0-9.eE+-]+$/ || b !~ /^[0-9.eE+-]+$/ || b + 0 == 0) { print "-"; exit }
		printf "%.3f\n", a / b }'
}

# br_table WORKLOAD...: the final table, one row per measured metric.
br_table() {
	local w spec key label fmt ours theirs
	printf '%-12s %-30s %14s %14s %8s\n' workload metric ours theirs ratio
	printf '%-12s %-30s %14s %14s %8s\n' ------------ ------------------------------ -------------- -------------- --------
	for w in "$@"; do
		for spec in "${BR_METRICS[@]}"; do
			IFS='|' read -r key label fmt <<<"$spec"
			ours=$(br_summary "$w" "$key" ours)
			theirs=$(br_summary "$w" "$key" theirs)
			[ -z "$ours$theirs" ] && continue
			printf '%-12s %-30s %14s %14s %8s\n' "$w" "$label" \
				"$(br_fmt "$fmt" "$ours")" "$(br_fmt "$fmt" "$theirs")" "$(br_ratio "$ours" "$theirs")"
		done
	done
}
