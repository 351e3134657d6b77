#!/usr/bin/env bash
# test.sh — install what is missing, build with -Wall -Wextra, and run every
# test (C unit tests and Perl TAP tests against real throwaway clusters),
# then print one line of timing: build, tests, total, and the slowest test.
# SANITIZE=1 builds with AddressSanitizer and UBSan in build-asan instead.
# PGBTEST_SERVER=N runs the tests against a PostgreSQL server of major N
# (13 to 18; scripts/pg-server installs it once), or =DIR against the
# server whose initdb, pg_ctl and postgres are in DIR; unset, against the
# distribution's.  Arguments go to meson test (--suite server: only the
# tests that depend on the server); TEST_LOGBASE names meson's log
# (default testlog: meson-logs/testlog.json); BUILD_ONLY=1 only builds.
# Warnings are errors (meson's -Dwerror=true, as in CI), also in a build
# directory set up before without it; WERROR=0 builds with them as warnings.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

start=$(date +%s)
bash scripts/deps.sh test
werror=true
[ "${WERROR:-1}" = 0 ] && werror=false
if [ "${SANITIZE:-0}" = 1 ]; then
	dir=build-asan
	[ -f $dir/build.ninja ] || rm -rf $dir; [ -f $dir/build.ninja ] || meson setup $dir -Dwerror=$werror -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
	dir=build
	[ -f $dir/build.ninja ] || rm -rf $dir; [ -f $dir/build.ninja ] || meson setup $dir -Dwerror=$werror >/dev/null
fi
# a directory set up otherwise (scripts/check-static.sh's, a developer's):
# reconfigured only when its werror differs, since .ci/run runs this script
# on one build directory twice at once
have=$(perl -MJSON::PP -0777 -ne 'for (@{ decode_json($_) }) { print $_->{value} ? "true" : "false" if $_->{name} eq "werror" }' \
	"$dir/meson-info/intro-buildoptions.json" 2>/dev/null || true)
[ "$have" = "$werror" ] || meson configure $dir -Dwerror=$werror >/dev/null
meson compile -C $dir
built=$(date +%s)
# BUILD_ONLY=1: the build alone (.ci/run builds ahead while a suite runs)
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
if [ -n "${PGBTEST_SERVER:-}" ]; then
	server=$(bash scripts/pg-server "$PGBTEST_SERVER")
	export PGBTEST_SERVER=$server
else
	server=$(pg_config --bindir)
fi
logbase=${TEST_LOGBASE:-testlog}
# Tests at once: three per core.  The Perl tests mostly wait (on their
# servers, on timeouts, on -T and -P runs): two at a time used about 0.6
# of the two cores, and six at a time halve the suite's time (337 -> 161
# s, 175 s beside two CPU hogs).  MESON_TESTTHREADS or --num-processes
# overrides it.
export MESON_TESTTHREADS=${MESON_TESTTHREADS:-$(($(nproc) * 3))}
rc=0
meson test -C $dir --print-errorlogs --logbase "$logbase" "$@" || rc=$?
done_at=$(date +%s)

# the slowest test, the counts and the failed tests' names (a CI log
# shown in part still says which), from meson's log of this run
summary=$(perl -MJSON::PP -ne '
	my $r = decode_json($_);
	$n++;
	unless ($r->{result} =~ /^(OK|EXPECTEDFAIL|SKIP)$/) { $bad++; push @bad, "$r->{name} ($r->{result})" }
	($slow, $t) = ($r->{name}, $r->{duration}) if $r->{duration} > ($t // -1);
	END { printf "%d tests, %d failed%s, slowest %s %.0f s", $n, $bad,
		@bad ? " [" . join(", ", @bad) . "]" : "", $slow // "-", $t // 0 }
' "$dir/meson-logs/$logbase.json" 2>/dev/null || echo "no test log")
echo "test.sh ($dir, server $("$server/postgres" --version | sed -E 's/^postgres \(PostgreSQL\) ([^ ]+).*/\1/')): build $((built - start)) s, tests $((done_at - built)) s, total $((done_at - start)) s; $summary"
exit $rc
