#!/usr/bin/env bash
# demo.sh — the main job from a fresh Debian machine: install what is
# missing, build, start a throwaway cluster, initialize it with our
# pgbench -i, run a short benchmark with progress, print the report, and
# stop the cluster.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

bash scripts/deps.sh
[ -f build/build.ninja ] || { rm -rf build; meson setup build >/dev/null; }
meson compile -C build >/dev/null || meson compile -C build

. scripts/cluster.sh
dir=$(mktemp -d /tmp/pgbench-demo.XXXXXX)
trap 'cluster_stop "$dir"' EXIT
cluster_start "$dir"

./build/pgbench -i -s 2
./build/pgbench -c 4 -j 2 -T 10 -P 2
