#!/usr/bin/env bash
# demo.sh — the main job from a fresh Debian machine: install what is
# missing, build, start a throwaway cluster, initialize it with our
# pgbench -i, run a short benchmark with progress, print the report, and
# stop the cluster.  It says what it does at each step (lines starting
# "demo:"), writes the run's JSON and HTML reports under the build
# directory, and ends with what to try next.
#   BUILD_DIR   the meson build directory (default: build)
#   DEMO_TIME   the run's length in seconds (default: 10)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${BUILD_DIR:-build}
secs=${DEMO_TIME:-10}

say() { echo "demo: $*"; }

say "checking what this machine lacks (scripts/deps.sh installs it with apt)"
bash scripts/deps.sh
if [ ! -f "$build/build.ninja" ]; then
	say "configuring the build in $build/ (meson)"
	rm -rf "$build"
	meson setup "$build" >/dev/null
fi
say "building $build/pgbench (ninja)"
meson compile -C "$build" >/dev/null || meson compile -C "$build"

. scripts/cluster.sh
dir=$(mktemp -d /tmp/pgbench-demo.XXXXXX)
trap 'say "stopping the cluster and removing $dir"; cluster_stop "$dir"' EXIT
say "starting a throwaway PostgreSQL $("$(cluster_bindir)/postgres" -V | sed 's/^[^)]*) \([^ ]*\).*/\1/') cluster in $dir"
cluster_start "$dir"
say "server on socket $PGHOST, port $PGPORT"

say "creating the pgbench tables at scale 2: $build/pgbench -i -s 2"
"$build/pgbench" -i -s 2
json=$build/demo-report.json
html=$build/demo-report.html
say "running 4 clients on 2 threads for $secs s, progress every 2 s:"
say "  $build/pgbench -c 4 -j 2 -T $secs -P 2 --report-json=$json --report-html=$html"
"$build/pgbench" -c 4 -j 2 -T "$secs" -P 2 --report-json="$json" --report-html="$html"

cat <<EOF
demo: done.  The run also wrote
demo:   $json   the whole report as JSON (doc/report-json.md)
demo:   $html   a self-contained page with charts (open it in a browser)
demo: Try next, against a server of your own (or one from ". scripts/cluster.sh; cluster_start DIR"):
demo:   $build/pgbench -c 8 -j 2 -T 30 -P 5 --percentiles          latency percentiles
demo:   $build/pgbench -S -M prepared -c 8 -T 30                    the select-only builtin
demo:   $build/pgbench -c 8 -T 30 --report-html=run.html            a page to share
demo:   $build/pgbench --merge-reports a.json b.json                reports of several machines (doc/fleet.md)
demo:   bash scripts/test.sh                                        the whole test suite
EOF
