#!/usr/bin/env bash
# deps.sh — install what building and testing pgbench needs, if missing (Debian).
# The tests compare with the system pgbench 15 as an oracle, at 15.20 or later
# (15.20 changed "-c/--clients" to "-c/--client" in messages): an older
# postgresql-15 / postgresql-client-15 is upgraded from the Debian archive.
# "deps.sh test" adds what the tests drive besides PostgreSQL: Debian's
# chromium (the HTML report is loaded in headless Chromium) and iproute2
# (network namespaces).  "deps.sh ci" adds to those what .ci/run's rule
# checks use: universal-ctags (function sizes), cppcheck and clang-tidy.
# Both add npm when there is none: scripts/pg-server uses it once per
# PostgreSQL major to fetch a server build of 13 to 18 (PGBTEST_SERVER=N).
set -euo pipefail

pkgs=(flex bison meson ninja-build libpq-dev libjemalloc-dev postgresql libipc-run-perl pkg-config gcc)
case "${1:-}" in
	test) pkgs+=(chromium iproute2) ;;
	ci) pkgs+=(chromium iproute2 universal-ctags cppcheck clang-tidy clang libclang-rt-14-dev) ;;
esac
need=()
for pkg in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
done
# npm for scripts/pg-server: Debian's package, unless an npm is already
# there (a Node.js installed otherwise brings its own, which Debian's
# npm package would conflict with)
case "${1:-}" in
	test|ci) command -v npm >/dev/null || need+=(npm) ;;
esac
oracle_min=15.20
for pkg in postgresql-15 postgresql-client-15; do
	have=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
	if [ -n "$have" ] && dpkg --compare-versions "$have" lt "$oracle_min"; then
		need+=("$pkg")
	fi
done
if [ ${#need[@]} -gt 0 ]; then
	echo "installing: ${need[*]}"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
