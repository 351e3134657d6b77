#!/usr/bin/env bash
# pg-tap-suite.sh — run PostgreSQL's own pgbench TAP suite (src/bin/pgbench/t)
# of one branch against our pgbench and against a reference pgbench, and
# list the asserts that fail for ours but not for the reference.
#
# The suite is never part of the repository: its source is fetched at run
# time from Debian's archive (apt-get source postgresql-MAJOR, which needs a
# deb-src entry) into a temporary directory, or taken from --src DIR.  It
# runs the `pgbench` found first on PATH, so each run puts a directory with
# a `pgbench` wrapper first, then `pg_config --bindir` (initdb, pg_ctl ...).
# As root the suite runs as the unprivileged "postgres" user (initdb
# refuses root).  Not part of `meson test`: it needs the network and takes
# minutes.
#
# Usage: scripts/pg-tap-suite.sh [options] OURS [REFERENCE]
#   OURS       our pgbench binary (PGBENCH_COMPAT / --compat select its mode)
#   REFERENCE  the reference binary; default: pg_config --bindir's pgbench
# Options:
#   --major N        PostgreSQL major whose suite to fetch (default 15)
#   --src DIR        use DIR (a PostgreSQL source tree) instead of fetching
#   --suite-dir DIR  use DIR/t (the suite's *.pl) and DIR/perl (the directory
#                    holding PostgreSQL/Test/*.pm) instead of a source tree
#   --compat N       run ours with PGBENCH_COMPAT=N
#   --server N|DIR   run the clusters on PostgreSQL major N (scripts/pg-server
#                    installs it) or on the server whose initdb, pg_ctl and
#                    postgres are in DIR; psql stays pg_config's
#   --add-deb-src    if apt knows no source package, add a deb-src entry for
#                    the archive already configured (root only)
#   --keep           keep the temporary directory
#   --compare A B    only compare two kept TAP outputs (ours.tap, reference.tap)
# Exit status: 0 when no assert fails for ours that passes for the
# reference, 1 when some do, 2 on a set-up error.
set -euo pipefail

# ---- compare, assert by assert -------------------------------------------------

compare() {
perl - "$1" "$2" <<'PERL'
use strict;
use warnings;

# file: description (#n for the n-th assert of that name) -> 1 pass, 0 fail;
# and file -> why it ended early (a test file that dies runs fewer asserts,
# which the counts alone would not tell)
sub results
{
	my ($path) = @_;
	my (%r, @order, %seen, $file, %died, $summary);
	open my $fh, '<', $path or die "$path: $!";
	while (<$fh>)
	{
		if (/^(t\/\S+\.pl) \.+/) { $file = $1; next; }
		# prove's summary: "t/x.pl (Wstat: ...)", then "Parse errors: Bad
		# plan. ..." or "No plan found ..." for a file that died
		if (/^(t\/\S+\.pl)\s+\(Wstat/) { $file = $1; $summary = 1; next; }
		next unless defined $file;
		if ($summary)
		{
			$died{$file} //= $1 if /^\s+Parse errors: (.*)/;
			next;
		}
		next unless /^(not )?ok (\d+)(?: - (.*))?$/;
		my ($fail, $desc) = ($1, $3 // "assert $2");
		$desc =~ s/\s+# (?:TODO|SKIP).*$//i;
		# what varies from run to run: seeds, pids, paths, counts of a timed run
		$desc =~ s{/tmp/pg-tap-suite\.\w+/(?:ours|reference)/}{}g;
		$desc =~ s/\(got \d+ vs expected (\d+)\)/(expected $1)/;
		$desc =~ s/(_log_\d+)\.\d+/$1.PID/;
		$desc =~ s/\d{4,}/N/g;
		$desc =~ s/^(transaction count for \S+) \(\d+\)/$1 (N)/;
		my $key = "$file: $desc";
		$key .= ' #' . $seen{$key} if $seen{$key}++;
		$r{$key} = $fail ? 0 : 1;
		push @order, $key;
	}
	return (\%r, \@order, \%died);
}

my ($ours, $oorder, $odied) = results($ARGV[0]);
my ($ref, $rorder, $rdied) = results($ARGV[1]);
for my $who ([ 'ours', $ours ], [ 'reference', $ref ])
{
	my $n = keys %{ $who->[1] };
	my $pass = grep { $_ } values %{ $who->[1] };
	printf "%-9s %4d asserts, %4d passed, %4d failed\n", $who->[0], $n, $pass, $n - $pass;
}
my @worse = grep { $ref->{$_} && !$ours->{$_} } @$rorder;
my @better = grep { !$ref->{$_} && $ours->{$_} } @$rorder;
my @only_ours = grep { !exists $ref->{$_} } @$oorder;
# an assert only ours ran (the reference died before it) counts when it fails
push @worse, grep { !$ours->{$_} } @only_ours;
my @died = map { "$_: ours ended early ($odied->{$_})" . ($rdied->{$_} ? ", the reference too ($rdied->{$_})" : '') }
  sort keys %$odied;
print "\nfailing for ours, passing for the reference or not run by it (", scalar(@worse), "):\n";
print "  $_", (exists $ours->{$_} ? '' : '  (not run)'), "\n" for @worse;
print "\nfailing for the reference, passing for ours (", scalar(@better), "):\n";
print "  $_\n" for @better;
print "\nrun for ours only (", scalar(@only_ours), "):\n";
print "  $_: ", ($ours->{$_} ? 'ok' : 'FAILED'), "\n" for @only_ours;
print "\ntest files that ended early for ours (", scalar(@died), "):\n";
print "  $_\n" for @died;
my $died_worse = grep { !$rdied->{$_} } keys %$odied;
exit(@worse || $died_worse ? 1 : 0);
PERL
}

major=15
src=
suite=
compat=
server=
add_debsrc=0
keep=0
compare_only=0
while [ $# -gt 0 ]; do
	case $1 in
		--major) major=$2; shift 2 ;;
		--src) src=$2; shift 2 ;;
		--suite-dir) suite=$2; shift 2 ;;
		--compat) compat=$2; shift 2 ;;
		--server) server=$2; shift 2 ;;
		--add-deb-src) add_debsrc=1; shift ;;
		--keep) keep=1; shift ;;
		--compare) compare_only=1; shift ;;
		-h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
		-*) echo "unknown option $1" >&2; exit 2 ;;
		*) break ;;
	esac
done
if [ "$compare_only" = 1 ]; then
	compare "$1" "$2"
	exit
fi
[ $# -ge 1 ] || { echo "usage: $0 [options] OURS [REFERENCE]" >&2; exit 2; }
bindir=$(pg_config --bindir)
# the server's programs come first on PATH, the distribution's psql after
serverdir=$bindir
[ -z "$server" ] || serverdir=$(bash "$(dirname "$0")/pg-server" "$server") || exit 2
ours=$(readlink -f "$1")
ref=$(readlink -f "${2:-$bindir/pgbench}")
for b in "$ours" "$ref"; do
	[ -x "$b" ] || { echo "not an executable: $b" >&2; exit 2; }
done

work=$(mktemp -d /tmp/pg-tap-suite.XXXXXX)
chmod 755 "$work"
cleanup() { [ "$keep" = 1 ] && echo "kept $work" >&2 || rm -rf "$work"; }
trap cleanup EXIT

# ---- the suite's source -----------------------------------------------------

fetch_source() {
	local pkg=postgresql-$major versions v
	if [ -z "$(apt-cache showsrc "$pkg" 2>/dev/null)" ]; then
		if [ "$add_debsrc" = 1 ] && [ "$(id -u)" -eq 0 ]; then
			sed -n 's/^Types: deb$/Types: deb-src/; p' /etc/apt/sources.list.d/debian.sources \
				> /etc/apt/sources.list.d/pg-tap-suite-src.sources
			apt-get update -qq
		else
			echo "apt knows no source package $pkg: add a deb-src entry (or pass --add-deb-src as root)," >&2
			echo "or give a PostgreSQL source tree with --src DIR" >&2
			exit 2
		fi
	fi
	# newest first; a version the mirror no longer has (404) falls through
	versions=$(apt-cache showsrc "$pkg" | sed -n 's/^Version: //p' | sort -rV | uniq)
	mkdir -p "$work/dl"
	for v in $versions; do
		if (cd "$work/dl" && apt-get source -qq --download-only "$pkg=$v" >/dev/null 2>&1); then
			echo "source: $pkg $v (Debian archive)" >&2
			tar -xf "$work"/dl/*.orig.tar.* -C "$work/dl" --wildcards \
				'*/src/bin/pgbench/t/*' '*/src/test/perl/*'
			src=$(echo "$work"/dl/postgresql-*/)
			return
		fi
		rm -f "$work"/dl/*
	done
	echo "no version of $pkg could be downloaded" >&2
	exit 2
}

if [ -n "$suite" ]; then
	tdir=$suite/t pdir=$suite/perl
else
	[ -n "$src" ] || fetch_source
	tdir=$src/src/bin/pgbench/t pdir=$src/src/test/perl
fi
[ -d "$tdir" ] && [ -d "$pdir/PostgreSQL/Test" ] ||
	{ echo "no suite in $tdir or no PostgreSQL/Test modules in $pdir" >&2; exit 2; }

# pg_regress --config-auth (called by Cluster.pm's init) does nothing outside Windows
pg_regress=$(dirname "$(pg_config --pgxs)")/../test/regress/pg_regress
[ -x "$pg_regress" ] || pg_regress=/bin/true

# ---- one run of the suite -----------------------------------------------------

as_user=()
if [ "$(id -u)" -eq 0 ]; then
	id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
	as_user=(runuser -u postgres --)
fi

# run_suite NAME BINARY [ENV=VAL...]: TAP output of every file in $work/NAME.tap
run_suite() {
	local name=$1 bin=$2; shift 2
	local dir=$work/$name
	mkdir -p "$dir/wrap"
	cp -RL "$pdir" "$dir/perl"
	mkdir -p "$dir/pgbench" && cp -RL "$tdir" "$dir/pgbench/t"
	{
		echo '#!/bin/sh'
		for kv in "$@"; do printf 'export %q\n' "$kv"; done
		printf 'exec %q "$@"\n' "$bin"
	} > "$dir/wrap/pgbench"
	chmod 755 "$dir/wrap/pgbench"
	[ ${#as_user[@]} -eq 0 ] || chown -R postgres "$dir"
	echo "running the suite against $name: $bin $*" >&2
	(cd "$dir/pgbench" && "${as_user[@]}" env PATH="$dir/wrap:$serverdir:$bindir:$PATH" \
		PERL5LIB="$dir/perl" PG_REGRESS="$pg_regress" TESTDIR="$dir/pgbench" \
		TESTDATADIR="$dir/pgbench/tmp_check" TESTLOGDIR="$dir/pgbench/log" \
		prove -v t/*.pl > "$dir.tap" 2>"$dir.err") || true
}

ours_env=()
[ -z "$compat" ] || ours_env=("PGBENCH_COMPAT=$compat")
run_suite ours "$ours" "${ours_env[@]}"
run_suite reference "$ref"

compare "$work/ours.tap" "$work/reference.tap"
