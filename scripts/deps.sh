#!/usr/bin/env bash
# deps.sh — install what building and testing pgbench needs, if missing (Debian).
set -euo pipefail

need=()
for pkg in flex bison meson ninja-build libpq-dev postgresql libipc-run-perl pkg-config gcc; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
	echo "installing: ${need[*]}"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
