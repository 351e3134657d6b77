#!/usr/bin/env bash
# cluster.sh — start or stop a throwaway PostgreSQL cluster for demos and
# benchmarks (tests use t/lib/PgbTest.pm).  Source it, then:
#   cluster_start DIR [extra postgresql.conf lines]   # exports PGHOST PGPORT PGUSER PGDATABASE
#   cluster_stop DIR
# As root the server runs as the unprivileged "postgres" user: initdb refuses root.

# The server: $PGBTEST_SERVER names its bin directory, or a major that
# scripts/pg-server installs (the distribution's when it has that major);
# unset, the distribution's (pg_config --bindir).
cluster_bindir() {
	local b want=${PGBTEST_SERVER:-}
	if [ -n "$want" ]; then
		"$(dirname "${BASH_SOURCE[0]}")/pg-server" "$want"
		return
	fi
	b=$(pg_config --bindir 2>/dev/null)
	if [ -n "$b" ] && [ -x "$b/initdb" ]; then echo "$b"; return; fi
	for v in 19 18 17 16 15; do
		[ -x /usr/lib/postgresql/$v/bin/initdb ] && { echo /usr/lib/postgresql/$v/bin; return; }
	done
	echo "no initdb found" >&2
	return 1
}

cluster_as() {
	if [ "$(id -u)" -eq 0 ]; then
		id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

cluster_start() {
	local dir=$1 extra=${2:-} bindir port
	bindir=$(cluster_bindir) || return 1
	mkdir -p "$dir/sock"
	chmod 755 "$dir"
	[ "$(id -u)" -eq 0 ] && { id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres; chown postgres "$dir" "$dir/sock"; }
	cluster_as "$bindir/initdb" -D "$dir/data" -A trust -U postgres --no-sync -E UTF8 --locale=C >/dev/null
	port=$((20000 + RANDOM % 30000))
	cat >> "$dir/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$dir/sock'
port = $port
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 256MB
max_connections = 600
$extra
CONF
	cluster_as "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 120 start >/dev/null
	export PGHOST="$dir/sock" PGPORT=$port PGUSER=postgres PGDATABASE=postgres
}

cluster_stop() {
	local dir=$1 bindir
	bindir=$(cluster_bindir) || return 1
	cluster_as "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
	rm -rf "$dir"
}
