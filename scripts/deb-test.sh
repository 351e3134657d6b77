#!/usr/bin/env bash
# deb-test.sh — the Debian package on a fresh Debian 12, as a user would
# meet it.  Builds the package with dpkg-buildpackage in a minimal bookworm
# root that has only build-essential and debian/control's Build-Depends,
# runs lintian on it (on this machine, when installed), then in a second
# fresh root installs PostgreSQL 15 and the package beside it, initializes
# and runs a short benchmark with pgbench-ng on a cluster started there,
# checks that pg_wrapper's /usr/bin/pgbench is unchanged and still works,
# tries README.Debian's ways of making pgbench-ng "pgbench" and undoing
# them, purges the package and checks that nothing of it is left.
#
# Needs root (debootstrap, chroot, mounts) and the Debian mirror.  The
# bootstrapped base root is cached as a tarball (first run: debootstrap,
# several minutes; later runs unpack it), and so are the .debs apt fetches.
# Nothing on this machine changes outside the cache and a temporary
# directory (removed at the end unless --keep): the roots' PostgreSQL runs
# on a Unix socket in the root's /tmp, with no TCP port.
#
# Usage: scripts/deb-test.sh [--host-build] [--keep] [--refresh-base]
#   --host-build    build the package here, with this machine's tools,
#                   installing Build-Depends here if missing (faster; does
#                   not prove Build-Depends sufficient)
#   --keep          keep the temporary directory (roots, logs, packages)
#   --refresh-base  bootstrap the base root again instead of the cached one
# Environment: DEB_TEST_CACHE (default /var/cache/pgbench-ng-deb-test),
#   DEB_TEST_MIRROR (default http://deb.debian.org/debian), TMPDIR.
# Exit status: 0 all checks pass, 1 a check fails, 2 this machine cannot
# run the test (not root, no debootstrap, mirror unreachable).
set -euo pipefail
# All of it in one block, read whole before it runs: editing the file during
# a run (it takes minutes) does not change the run.
{
cd "$(dirname "$0")/.."
src=$PWD

host_build=0 keep=0 refresh=0
for arg; do
	case $arg in
		--host-build) host_build=1 ;;
		--keep) keep=1 ;;
		--refresh-base) refresh=1 ;;
		*) echo "usage: $0 [--host-build] [--keep] [--refresh-base]" >&2; exit 2 ;;
	esac
done

cache=${DEB_TEST_CACHE:-/var/cache/pgbench-ng-deb-test}
mirror=${DEB_TEST_MIRROR:-http://deb.debian.org/debian}
base=$cache/bookworm-minbase.tar.gz
started=$(date +%s)
roots=()

say() { echo "deb-test: $*"; }
fail() { say "FAILED: $*"; exit 1; }
cannot() { say "cannot run here: $*"; exit 2; }
elapsed() { echo "$(( $(date +%s) - started )) s"; }

# ---- can this machine run it? -----------------------------------------------

[ "$(id -u)" = 0 ] || cannot "needs root (debootstrap, chroot)"
host=${mirror#*://}
host=${host%%/*}
timeout 20 bash -c "exec 3<>/dev/tcp/$host/80" 2>/dev/null || cannot "mirror $host unreachable"
if ! command -v debootstrap >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q debootstrap >/dev/null ||
		cannot "debootstrap not installable"
fi

# The package's version is the project's: meson.build = debian/changelog.
meson_version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" meson.build | head -1)
deb_version=$(sed -n '1s/^pgbench-ng (\([^)]*\)).*/\1/p' debian/changelog)
[ -n "$meson_version" ] && [ "$meson_version" = "$deb_version" ] ||
	fail "meson.build version '$meson_version' != debian/changelog version '$deb_version'"
say "version $meson_version (meson.build and debian/changelog agree)"

work=$(mktemp -d "${TMPDIR:-/var/tmp}/deb-test.XXXXXX")
mkdir -p "$cache/archives/partial" "$cache/lists/partial"

# ---- roots ---------------------------------------------------------------------

# Unmount what root $1 has mounted, innermost first; stop its cluster first.
release_root()
{
	local root=$1 m
	[ -e "$root/tmp/pgdata/postmaster.pid" ] &&
		chroot "$root" runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl \
			-D /tmp/pgdata -m immediate stop >/dev/null 2>&1 || true
	for m in var/lib/apt/lists var/cache/apt/archives dev/shm proc; do
		mountpoint -q "$root/$m" && { umount "$root/$m" || umount -l "$root/$m"; }
	done
	return 0
}

cleanup()
{
	local root
	for root in "${roots[@]}"; do release_root "$root"; done
	if [ $keep = 1 ]; then
		say "kept $work"
	elif ! findmnt -rn -o TARGET | grep -q "^$work/"; then
		rm -rf --one-file-system "$work"
	else
		say "left $work: something is still mounted there"
	fi
}
trap cleanup EXIT

# The cached base: a minimal bookworm as debootstrap makes it.
make_base()
{
	local t0=$(date +%s)
	say "bootstrapping a minimal bookworm from $mirror (cached for later runs) ..."
	debootstrap --variant=minbase bookworm "$work/base" "$mirror" >"$work/debootstrap.log" 2>&1 ||
		{ tail -20 "$work/debootstrap.log"; fail "debootstrap"; }
	rm -rf "$work/base/var/cache/apt/archives/"*.deb "$work/base/var/lib/apt/lists/"*
	tar --numeric-owner -C "$work/base" -czf "$base.tmp" . && mv "$base.tmp" "$base"
	rm -rf --one-file-system "$work/base"
	say "base root cached in $base ($(( $(date +%s) - t0 )) s)"
}

# A fresh root in $work/$1 from the cached base, apt ready and sharing the
# cache's package files; services never start in it (policy-rc.d).
new_root()
{
	local root=$work/$1
	mkdir "$root"
	roots+=("$root")
	tar --numeric-owner -C "$root" -xzf "$base"
	mount -t proc proc "$root/proc"
	mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
	mount --bind "$cache/archives" "$root/var/cache/apt/archives"
	mount --bind "$cache/lists" "$root/var/lib/apt/lists"
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	cat >"$root/etc/apt/sources.list" <<-EOF
	deb $mirror bookworm main
	deb $mirror bookworm-updates main
	deb http://deb.debian.org/debian-security bookworm-security main
	EOF
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	in_root "$1" apt-get update -q >"$work/$1-apt-update.log" 2>&1 ||
		{ tail -20 "$work/$1-apt-update.log"; fail "apt-get update in the $1 root"; }
}

# Run a command in root $1 (a login-like environment, no host variables).
in_root()
{
	local name=$1
	shift
	chroot "$work/$name" /usr/bin/env -i HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

apt_install()
{
	local name=$1
	shift
	in_root "$name" apt-get install -y -q --no-install-recommends "$@" >>"$work/$name-apt.log" 2>&1 ||
		{ tail -30 "$work/$name-apt.log"; fail "apt-get install $* in the $name root"; }
}

# The source tree as git sees it (tracked and new files, no build dirs).
copy_source()
{
	mkdir -p "$1"
	(cd "$src" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -x -C "$1"
}

if [ $refresh = 1 ] || [ ! -s "$base" ]; then make_base; fi

# ---- build -----------------------------------------------------------------------

build_package()
{
	local t0=$(date +%s) deps dir
	deps=$(sed -n '/^Build-Depends:/,/^[^ ]/{s/^Build-Depends://;/^[^ ]/!p}' "$src/debian/control" |
		tr -d '\n' | sed 's/  */ /g')
	if [ $host_build = 1 ]; then
		command -v dpkg-checkbuilddeps >/dev/null && (cd "$src" && dpkg-checkbuilddeps 2>/dev/null) ||
			DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 satisfy -y -q \
				--no-install-recommends "build-essential, $deps" >"$work/host-apt.log" 2>&1 ||
			{ tail -20 "$work/host-apt.log"; fail "installing Build-Depends on this machine"; }
		dir=$work/host-build
		copy_source "$dir/pgbench-ng-$deb_version"
		(cd "$dir/pgbench-ng-$deb_version" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1 ||
			{ tail -30 "$work/build.log"; fail "dpkg-buildpackage (on this machine)"; }
		say "package built on this machine ($(( $(date +%s) - t0 )) s)"
	else
		new_root build
		in_root build apt-get satisfy -y -q --no-install-recommends "build-essential, $deps" \
			>"$work/build-apt.log" 2>&1 || { tail -30 "$work/build-apt.log"; fail "installing Build-Depends: $deps"; }
		if in_root build perl -MIPC::Run -e 1 2>/dev/null; then
			fail "the build root has IPC::Run: it would not show that the build needs no Perl test modules"
		fi
		dir=$work/build/build
		copy_source "$dir/pgbench-ng-$deb_version"
		in_root build sh -c "cd /build/pgbench-ng-$deb_version && dpkg-buildpackage -us -uc -b" \
			>"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; fail "dpkg-buildpackage in a clean root"; }
		say "package built in a clean bookworm root with only build-essential and Build-Depends ($(( $(date +%s) - t0 )) s)"
	fi
	cp "$dir"/*.deb "$dir"/*.changes "$dir"/*.buildinfo "$work/"
	deb=$(ls "$work"/pgbench-ng_"$deb_version"_*.deb)
	say "built $(basename "$deb")"
}

run_lintian()
{
	local out
	if ! command -v lintian >/dev/null; then
		lintian_result="not run (lintian is not installed here)"
		return
	fi
	out=$(lintian -I -E --pedantic "$work"/pgbench-ng_"$deb_version"_*.changes 2>&1 |
		grep -v 'running with root privileges' || true)
	[ -z "$out" ] || echo "$out" | sed 's/^/deb-test: lintian: /'
	if echo "$out" | grep -q '^[EW]:'; then
		fail "lintian reports errors or warnings"
	fi
	lintian_result="no errors or warnings ($(echo "$out" | grep -c '^[IPX]:' || true) info/pedantic tags)"
	say "lintian: $lintian_result"
}

build_package
run_lintian

# ---- install beside PostgreSQL, use, remove --------------------------------------

as_postgres() { in_root test runuser -u postgres -- "$@"; }
pg_bin=/usr/lib/postgresql/15/bin

# pg_wrapper's pgbench as it is: where the link points and what -V says.
wrapper_state() { in_root test sh -c 'readlink /usr/bin/pgbench; /usr/bin/pgbench -V'; }

new_root test
apt_install test postgresql-15 postgresql-client-15
wrapper_before=$(wrapper_state)
say "PostgreSQL installed: $(echo "$wrapper_before" | tail -1)"

# What the package holds, and which of its directories the system had already.
dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|; s|/$||' | grep -v '^\.\?$' >"$work/contents"
while read -r p; do [ -d "$work/test$p" ] && echo "$p"; done <"$work/contents" >"$work/dirs-before"

cp "$deb" "$work/test/tmp/"
apt_install test "/tmp/$(basename "$deb")"
[ "$(wrapper_state)" = "$wrapper_before" ] || fail "installing pgbench-ng changed /usr/bin/pgbench"
in_root test dpkg -L pgbench-ng | grep -vx "/." >"$work/dpkg-L"
got=$(in_root test pgbench-ng -V)
[ "$got" = "pgbench (PostgreSQL) 16 (pgbench-ng $deb_version)" ] || fail "pgbench-ng -V says '$got'"
say "installed beside postgresql-client-15; pgbench-ng -V: $got"

as_postgres $pg_bin/initdb -D /tmp/pgdata -A trust >"$work/initdb.log" 2>&1 ||
	{ tail "$work/initdb.log"; fail "initdb in the test root"; }
as_postgres $pg_bin/pg_ctl -D /tmp/pgdata -l /tmp/pgdata.log -w \
	-o "-c listen_addresses='' -k /tmp -p 5432" start >/dev/null || fail "starting the cluster"
as_postgres createdb -h /tmp bench || fail "createdb"

as_postgres pgbench-ng -h /tmp -i -s 2 bench >"$work/init.out" 2>&1 ||
	{ cat "$work/init.out"; fail "pgbench-ng -i"; }
grep -q '^done in ' "$work/init.out" || { cat "$work/init.out"; fail "pgbench-ng -i: no 'done in' line"; }
as_postgres pgbench-ng -h /tmp -c 4 -j 2 -t 250 -P 1 bench >"$work/run.out" 2>&1 ||
	{ cat "$work/run.out"; fail "pgbench-ng run"; }
grep -qx 'number of transactions actually processed: 1000/1000' "$work/run.out" ||
	{ cat "$work/run.out"; fail "pgbench-ng run: not 1000/1000 transactions"; }
say "pgbench-ng -i -s 2, then -c 4 -j 2 -t 250: $(grep '^tps' "$work/run.out")"

as_postgres pgbench -h /tmp -S -t 100 bench >"$work/wrapper.out" 2>&1 ||
	{ cat "$work/wrapper.out"; fail "pg_wrapper's pgbench"; }
grep -qx 'number of transactions actually processed: 100/100' "$work/wrapper.out" ||
	{ cat "$work/wrapper.out"; fail "pg_wrapper's pgbench: not 100/100"; }
say "pg_wrapper's /usr/bin/pgbench still runs PostgreSQL's: $(head -1 "$work/wrapper.out")"

# README.Debian: "pgbench" through PATH, then through update-alternatives.
login_pgbench_v() { as_postgres bash -lc 'hash -r; pgbench -V'; }
got=$(as_postgres env PATH="/usr/lib/pgbench-ng/bin:/usr/bin:/bin" pgbench -V)
[ "$got" = "pgbench (PostgreSQL) 16 (pgbench-ng $deb_version)" ] || fail "PATH=/usr/lib/pgbench-ng/bin: pgbench -V says '$got'"
alternative() {
	in_root test update-alternatives --install /usr/local/bin/pgbench pgbench /usr/bin/pgbench-ng 50 \
		>/dev/null || fail "update-alternatives --install"
	got=$(login_pgbench_v)
	[ "$got" = "pgbench (PostgreSQL) 16 (pgbench-ng $deb_version)" ] || fail "after update-alternatives, pgbench -V says '$got'"
	[ "$(wrapper_state)" = "$wrapper_before" ] || fail "update-alternatives changed /usr/bin/pgbench"
}
alternative
in_root test update-alternatives --remove pgbench /usr/bin/pgbench-ng >/dev/null || fail "update-alternatives --remove"
got=$(login_pgbench_v | tail -1)
[ "$got" = "$(echo "$wrapper_before" | tail -1)" ] || fail "after update-alternatives --remove, pgbench -V says '$got'"
alternative
say "README.Debian's steps: PATH=/usr/lib/pgbench-ng/bin and update-alternatives make it pgbench; --remove undoes it"

as_postgres $pg_bin/pg_ctl -D /tmp/pgdata -w stop >/dev/null || fail "stopping the cluster"

# Purge with the alternative still registered: nothing of the package stays.
in_root test apt-get purge -y -q pgbench-ng >>"$work/test-apt.log" 2>&1 || fail "apt-get purge pgbench-ng"
left=()
while read -r p; do
	if grep -qx "$p" "$work/dirs-before"; then
		[ -d "$work/test$p" ] || left+=("missing system directory $p")
	elif [ -e "$work/test$p" ] || [ -L "$work/test$p" ]; then
		left+=("$p")
	fi
done < <(sort -u "$work/contents" "$work/dpkg-L")
for p in /usr/local/bin/pgbench /etc/alternatives/pgbench /var/lib/dpkg/alternatives/pgbench; do
	[ -e "$work/test$p" ] || [ -L "$work/test$p" ] && left+=("$p")
done
ls "$work/test/var/lib/dpkg/info/" | grep -q '^pgbench-ng[.:]' && left+=("/var/lib/dpkg/info/pgbench-ng.*")
in_root test dpkg-query -W -f '${db:Status-Status}' pgbench-ng 2>/dev/null | grep -qv not-installed &&
	left+=("dpkg still knows pgbench-ng")
[ ${#left[@]} = 0 ] || { printf 'deb-test: left after purge: %s\n' "${left[@]}"; fail "purge left files"; }
[ "$(wrapper_state)" = "$wrapper_before" ] || fail "after purge, /usr/bin/pgbench differs"
say "purged: none of the package's $(sort -u "$work/contents" "$work/dpkg-L" | wc -l) paths left, nor the alternative; /usr/bin/pgbench as before"

# .ci/run decides from the last duration of each kind of run whether it fits.
kind=full
[ $host_build = 0 ] || kind=host-build
echo $(( $(date +%s) - started )) >"$cache/last-duration-$kind"
say "PASS: $(basename "$deb") built, lintian $lintian_result, installed, ran, purged clean ($(elapsed))"
exit 0
}
