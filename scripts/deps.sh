#!/usr/bin/env bash
# deps.sh — install what building and testing pgbench needs, if missing (Debian).
# The tests compare with the system pgbench 15 as an oracle, at 15.20 or later
# (15.20 changed "-c/--clients" to "-c/--client" in messages): an older
# postgresql-15 / postgresql-client-15 is upgraded from the Debian archive.
# "deps.sh test" adds what the tests drive besides PostgreSQL: Debian's
# chromium (the HTML report is loaded in headless Chromium) and iproute2
# (network namespaces), and gcovr (meson's coverage-engine target).
# "deps.sh ci" adds to those what .ci/run's rule checks use:
# universal-ctags (function sizes), cppcheck and clang-tidy.
# Both add npm when there is none: scripts/pg-server uses it once per
# PostgreSQL major to fetch a server build of 13 to 18 (PGBTEST_SERVER=N).
# "deps.sh --wait-lock" only waits until no apt/dpkg holds the package
# manager's locks (what every install here does first).
set -euo pipefail

pkgs=(flex bison meson ninja-build libpq-dev libssl-dev libjemalloc-dev postgresql libipc-run-perl libjson-validator-perl pkg-config gcc)
case "${1:-}" in
	test) pkgs+=(chromium iproute2 gcovr) ;;
	ci) pkgs+=(chromium iproute2 gcovr universal-ctags cppcheck clang-tidy clang libclang-rt-14-dev) ;;
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

# Another apt or dpkg (unattended-upgrades on a fresh machine, a second
# shell) holds the package manager's locks: wait for it, saying so every
# 10 s, for up to DEPS_LOCK_WAIT seconds (default 600), instead of failing.
# The locks are fcntl record locks; F_GETLK asks who holds one without
# taking it (struct flock of 64-bit Linux).
apt_locks=(/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock)
lock_holder() {
	perl -MFcntl -e '
		for my $f (@ARGV) {
			open(my $fh, "<", $f) or next;
			my $fl = pack("s s x4 q q i x4", F_WRLCK, 0, 0, 0, 0);
			fcntl($fh, F_GETLK, $fl) or next;
			my ($type, undef, undef, undef, $pid) = unpack("s s x4 q q i x4", $fl);
			if ($type != F_UNLCK) { print "$f $pid\n"; exit 0; }
		}
		exit 1;' "${apt_locks[@]}"
}
wait_for_apt() {
	local limit=${DEPS_LOCK_WAIT:-600} waited=0 held pid what
	while held=$(lock_holder); do
		if [ $((waited % 10)) -eq 0 ]; then
			pid=${held##* }
			what=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-60) || true
			echo "deps.sh: waiting for the package manager: ${held% *} is held by process $pid${what:+ ($what)}; ${waited} s so far, up to ${limit} s"
		fi
		if [ "$waited" -ge "$limit" ]; then
			echo "deps.sh: the package manager is still busy after ${limit} s; try again later (DEPS_LOCK_WAIT=SECONDS waits longer)" >&2
			return 1
		fi
		sleep 1
		waited=$((waited + 1))
	done
}
[ "${1:-}" = --wait-lock ] && { wait_for_apt; exit; }

if [ ${#need[@]} -gt 0 ]; then
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	# no questions, no debconf warnings (apt-utils is not needed for that);
	# through sudo too, which does not pass the environment on
	apt_env=(env DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes)
	# apt waits for the dpkg lock itself too, should another take it
	# between our check and its start
	apt_opts=(-o DPkg::Lock::Timeout="${DEPS_LOCK_WAIT:-600}" -o Dpkg::Use-Pty=0)
	wait_for_apt
	echo "deps.sh: updating the package lists (apt-get update)"
	$SUDO "${apt_env[@]}" apt-get "${apt_opts[@]}" update -qq
	wait_for_apt
	echo "deps.sh: installing ${#need[@]} packages with apt (a minute or a few on a fresh machine): ${need[*]}"
	$SUDO "${apt_env[@]}" apt-get "${apt_opts[@]}" install -y -qq "${need[@]}" >/dev/null
	echo "deps.sh: installed"
fi
