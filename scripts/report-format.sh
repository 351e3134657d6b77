#!/usr/bin/env bash
# report-format.sh — the committed documents of the --report-json format
# against what tools/report_format.c makes of its declaration
# (include/pgbench/report/report_members.h): doc/report-json.schema.json,
# and doc/report-json.md's member tables (its prose is kept as written).
#
#   scripts/report-format.sh --update [BUILDDIR]   build them (BUILDDIR,
#                                                  default build) and copy
#                                                  them over the committed ones
#   scripts/report-format.sh --check BUILDDIR      exit 1, naming the command
#                                                  above, when they differ
#                                                  (the test report_format)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
dir=${2:-build}
case "$dir" in /*) ;; *) dir="$top/$dir" ;; esac
files="report-json.schema.json report-json.md"

case "$mode" in
--update)
	[ -f "$dir/build.ninja" ] || meson setup "$dir" "$top" >/dev/null
	ninja -C "$dir" tools/report-json.schema.json tools/report-json.md >/dev/null
	for f in $files; do
		if cmp -s "$dir/tools/$f" "$top/doc/$f"; then
			echo "doc/$f: up to date"
		else
			cp "$dir/tools/$f" "$top/doc/$f"
			echo "doc/$f: written again"
		fi
	done
	;;
--check)
	bad=0
	for f in $files; do
		if ! diff -u "$top/doc/$f" "$dir/tools/$f" >&2; then
			echo "doc/$f differs from the one generated from report_members.h" >&2
			bad=1
		fi
	done
	if [ $bad -ne 0 ]; then
		rel=${dir#"$top"/}
		echo "refresh the committed copies with: scripts/report-format.sh --update $rel" >&2
		exit 1
	fi
	echo "doc/report-json.schema.json and doc/report-json.md are as generated"
	;;
*)
	echo "usage: $0 --update [BUILDDIR] | --check BUILDDIR" >&2
	exit 2
	;;
esac
