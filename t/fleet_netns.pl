# fleet_netns.pl — a fleet of instances (doc/fleet.md) across three client
# "hosts": network namespaces joined to the root namespace by veth pairs,
# the server listening on TCP there.  Three instances, started a second
# apart, meet with --rendezvous=g:3 as a role that may not create tables,
# start within 50 ms of each other on the server's clock, record aligned
# intervals, and --merge-reports adds their reports up exactly: counts are
# the sums, p50/p90/p99 are within the histogram's error of the nearest-
# rank percentiles of the union of their -l logs.  A late joiner is
# refused; a group that never fills times out; reports of different
# workloads are refused.  The parts without namespaces run everywhere; the
# namespace part is skipped, with a message, only where namespaces cannot
# be made (not root, or `ip netns add` fails).
use strict;
use warnings;

use File::Temp qw(tempdir);
use IPC::Run ();
use JSON::PP;
use List::Util qw(sum0 max min);
use POSIX ();
use PgbTest;
use Test::More;

my $dir = tempdir('pgbfleet_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";
my $pgbench = PgbTest::our_pgbench_path();

# ---- the hosts -------------------------------------------------------------------

my $tag = sprintf('pf%d', $$ % 100000);
my @made;    # namespaces to delete at the end
my $owner = $$;

# only this process deletes them: a forked child leaving through Perl's
# exit must not take the namespaces from under the test
END
{
	if ($$ == $owner) { system('ip', 'netns', 'del', $_) for @made; }
}

sub sh { return system(@_) == 0; }

# Three namespaces nsN with 10.77.N.2/24, the root side of each veth 10.77.N.1.
sub make_hosts
{
	return 'not root' if $> != 0;
	for my $n (1 .. 3)
	{
		my ($ns, $host, $peer) = ("${tag}_ns$n", "${tag}h$n", "${tag}c$n");
		return "ip netns add failed" unless sh('ip', 'netns', 'add', $ns);
		push @made, $ns;
		sh('ip', 'link', 'add', $host, 'type', 'veth', 'peer', 'name', $peer)
		  && sh('ip', 'link', 'set', $peer, 'netns', $ns)
		  && sh('ip', 'addr', 'add', "10.77.$n.1/24", 'dev', $host)
		  && sh('ip', 'link', 'set', $host, 'up')
		  && sh('ip', 'netns', 'exec', $ns, 'ip', 'addr', 'add', "10.77.$n.2/24", 'dev', $peer)
		  && sh('ip', 'netns', 'exec', $ns, 'ip', 'link', 'set', $peer, 'up')
		  && sh('ip', 'netns', 'exec', $ns, 'ip', 'link', 'set', 'lo', 'up')
		  or return "could not set up the veth pair of $ns";
	}
	return '';
}

my $why_not = make_hosts();
my $listen = $why_not eq '' ? "listen_addresses = '10.77.1.1,10.77.2.1,10.77.3.1'\n" : '';
my $node = start_cluster(settings => $listen, hba => "host all all 10.77.0.0/16 trust\n");
my %env = %{ $node->env };

my ($rc, $out, $err) = PgbTest::pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables');

# A role that may connect and read the tables, nothing more.
# (servers before 15 let every role create tables in public: not this one)
$node->psql(q{REVOKE CREATE ON SCHEMA public FROM PUBLIC; CREATE ROLE fleet LOGIN; GRANT SELECT ON pgbench_accounts, pgbench_branches TO fleet});
my $denied = `@{[$node->psql_path]} -XAtq -h $env{PGHOST} -p $env{PGPORT} -U fleet -d postgres -c 'CREATE TABLE fleet_t (i int)' 2>&1`;
like($denied, qr/permission denied/, 'the role fleet may not create tables');

sub slurp_json { return decode_json(PgbTest::slurp($_[0])); }

# ---- a group that never fills, a late joiner -------------------------------------

my %fleet_env = (%env, PGUSER => 'fleet');
($rc, $out, $err) = PgbTest::pgbench([ '-n', '-S', '-c', '1', '-T', '5', '--rendezvous=lonely:2',
		'--rendezvous-timeout=2' ], env => \%fleet_env);
is($rc, 1, 'timeout: exit code 1');
like($err, qr/^pgbench: error: rendezvous "lonely" timed out after 2 s: 1 of 2 instances were ready$/m,
	'timeout: the message says how many were ready');
unlike($out, qr/^tps = /m, 'timeout: no report');

# ---- reports of different workloads ----------------------------------------------

sub short_run
{
	my ($name, @args) = @_;
	my ($r, $o, $e) = PgbTest::pgbench([ '-n', '-c', '2', '-t', '20', @args, "--report-json=$name" ],
		env => \%env);
	is($r, 0, "$name: exit code") or diag($e);
}
short_run('s1.json', '-S');
short_run('s2.json', '-S');
short_run('n.json', '-N');
short_run('p.json', '-S', '-M', 'prepared');
short_run('r.json', '-S', '-r');

for my $case ([ 'n.json', qr/differ in transaction_type: "<builtin: select only>" and "<builtin: simple update>"/ ],
	[ 'p.json', qr/differ in query_mode: "simple" and "prepared"/ ],
	[ 'r.json', qr/differ in the per-command report \(-r\): off and on/ ])
{
	my ($file, $re) = @$case;
	($rc, $out, $err) = PgbTest::pgbench([ '--merge-reports', 's1.json', $file ]);
	is($rc, 1, "merge with $file: refused, exit code 1");
	like($err, qr/^pgbench: error: reports "s1\.json" and "\Q$file\E" $re$/m, "merge with $file: the difference named");
	is($out, '', "merge with $file: no report");
}
($rc, $out, $err) = PgbTest::pgbench([ '--merge-reports', 's1.json', 's2.json' ]);
is($rc, 0, 'merge of two -t runs: exit code 0');
like($out, qr/^number of clients: 4\nnumber of threads: 2\n.*^number of transactions actually processed: 80\/80$/ms,
	'merge of two -t runs: clients, threads and transactions summed');
like($err, qr/^pgbench: warning: the reports did not start together/m,
	'merge without --rendezvous: a warning says how the series were aligned');

# an instance whose client aborted (the same script: -D decides whether it
# divides by zero): the merged run is an aborted one
PgbTest::write_file('div.sql', "SELECT abalance / :d FROM pgbench_accounts WHERE aid = 1;\n");
($rc, $out, $err) = PgbTest::pgbench([ '-n', '-c', '1', '-t', '20', '-f', 'div.sql', '-D', 'd=0',
		'--report-json=a1.json' ], env => \%env);
is($rc, 2, 'an aborted instance: exit code 2');
($rc, $out, $err) = PgbTest::pgbench([ '-n', '-c', '2', '-t', '20', '-f', 'div.sql', '-D', 'd=1',
		'--report-json=g1.json' ], env => \%env);
is($rc, 0, 'its fellow instance: exit code 0');
($rc, $out, $err) = PgbTest::pgbench([ '--merge-reports', 'g1.json', 'a1.json' ]);
is($rc, 2, 'merge with an aborted instance: exit code 2, as the aborted run');
like($out, qr/^number of transactions actually processed: 40\/60$/m,
	'merge with an aborted instance: what was processed of what was asked');
like($err, qr/^pgbench: error: Run was aborted; the above results are incomplete\.$/m,
	'merge with an aborted instance: the closing line');
is(slurp_json('a1.json')->{aborted}, JSON::PP::true, 'the aborted instance\'s JSON says so');

# ---- the fleet ----------------------------------------------------------------------

SKIP:
{
	skip("network namespaces cannot be made here ($why_not)", 1) if $why_not ne '';

	my $port = $node->port;
	my (@runs, @outs, @errs);
	for my $n (1 .. 3)
	{
		mkdir "i$n";
		my @cmd = ('ip', 'netns', 'exec', "${tag}_ns$n", $pgbench, '-h', "10.77.$n.1", '-p', $port,
			'-U', 'fleet', '-n', '-S', '-c', '4', '-j', '2', '-T', '10', '-P', '1', '-l',
			"--log-prefix=i$n/log", '--rendezvous=g:3', "--report-json=i$n.json", 'postgres');
		($outs[$n], $errs[$n]) = ('', '');
		push @runs, IPC::Run::start(\@cmd, '<', \undef, '>', \$outs[$n], '2>', \$errs[$n],
			IPC::Run::timeout(120));
		# joined (it holds its member slot, an advisory lock (K, 2 + i)):
		# the order of joining is the order of launching, which a second
		# alone does not make sure of on a busy machine
		my $joined = poll_until(sub {
			$node->query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
				  . "AND objsubid = 2 AND objid >= 2") >= $n;
		}, 60);
		ok($joined, "instance $n has joined the group");
		sleep 1;    # staggered: the first ones wait for the last
	}

	# the group has started (every instance has printed a progress line, a
	# second into the run, which lasts 10 s): too late.  Polled rather than
	# a fixed sleep, which a busy machine may outrun.
	my $started = poll_until(sub {
		eval { $_->pump_nb } for @runs;
		return !grep { ($errs[$_] // '') !~ /^progress: /m } 1 .. 3;
	}, 60);
	ok($started, 'the group has started: every instance reports progress');
	my ($lrc, $lout, $lerr) = PgbTest::run_cmd([ 'ip', 'netns', 'exec', "${tag}_ns1", $pgbench,
			'-h', '10.77.1.1', '-p', $port, '-U', 'fleet', '-n', '-S', '-c', '1', '-T', '2',
			'--rendezvous=g:3', 'postgres' ]);
	is($lrc, 1, 'late joiner: exit code 1');
	like($lerr, qr/^pgbench: error: rendezvous "g" has already started: this instance came too late$/m,
		'late joiner: refused with a message');

	for my $n (1 .. 3)
	{
		$runs[ $n - 1 ]->finish;
		is($? >> 8, 0, "instance $n: exit code 0") or diag($errs[$n]);
	}
	my @docs = map { slurp_json("i$_.json") } 1 .. 3;

	# the rendezvous: members in order of arrival, one agreed instant
	is_deeply([ map { $_->{rendezvous}{member} } @docs ], [ 0, 1, 2 ], 'members numbered in order of joining');
	my @agreed = map { $_->{rendezvous}{start_server_epoch_us} } @docs;
	is(scalar(grep { $_ == $agreed[0] } @agreed), 3, 'one agreed start instant');
	# the actual start: the agreed instant on this instance's clock, moved to
	# the server's, plus how late its first thread woke up after it (under a
	# rendezvous "initial connection time" is that delay)
	my @starts = map {
		$_->{start_epoch_s} * 1e6 + $_->{rendezvous}{clock_offset_us}
		  + $_->{initial_connection_ms} * 1000
	} @docs;
	my $skew = max(@starts) - min(@starts);
	# within 50 ms (a millisecond at most on one host); the starts include
	# how late each first thread woke up, which a busy machine stretches:
	# the bound is what a whole trivial run costs now when that is more,
	# and stays far below the 1 s between the instances' launches, which a
	# failed rendezvous would show
	my $o = overhead_of([ '-n', '-S', '-c', '4', '-j', '2', '-t', '1' ], env => \%env);
	my $bound = 50000;
	$bound = 1e6 * $o if 1e6 * $o > $bound;
	$bound = 400000 if $bound > 400000;
	cmp_ok($skew, '<=', $bound, sprintf("start skew on the server's clock: %d us <= %.0f ms", $skew, $bound / 1000));

	# aligned intervals: every point but the last ends at a tick of the
	# common grid (k s from the agreed start; the ticker reads it a little late)
	my @grids = map {
		my @p = @{ $_->{series}{points} };
		join(',', map { sprintf('%.0f', $_->{t_s} - 0.25) } @p[ 0 .. $#p - 1 ])
	} @docs;
	ok(length($grids[0]) > 0 && $grids[0] eq $grids[1] && $grids[1] eq $grids[2],
		'the instances\' series points end at the same times');

	# the merge
	my ($mrc, $mout, $merr) = PgbTest::pgbench([ '--merge-reports', 'i1.json', 'i2.json', 'i3.json',
			'--report-json=m.json' ]);
	is($mrc, 0, 'merge: exit code 0') or diag($merr);
	is($merr, '', 'merge: nothing on stderr (the instances started together)');
	my $m = slurp_json('m.json');
	my $processed = sum0(map { $_->{transactions}{processed} } @docs);
	is($m->{transactions}{processed}, $processed, "merged processed = sum ($processed)");
	is($m->{transactions}{failed}, sum0(map { $_->{transactions}{failed} } @docs), 'merged failures = sum');
	is($m->{settings}{clients}, 12, 'merged clients: 12');
	is($m->{settings}{threads}, 6, 'merged threads: 6');
	like($mout, qr/^number of clients: 12$/m, 'merged text: number of clients');
	like($mout, qr/^number of transactions actually processed: $processed$/m, 'merged text: processed');
	my $mpoints = $m->{series}{points};
	my $pointwise = 1;
	for my $i (0 .. $#$mpoints)
	{
		my $want = sum0(map { $_->{series}{points}[$i] ? $_->{series}{points}[$i]{processed} : 0 } @docs);
		$pointwise = 0 if $mpoints->[$i]{processed} != $want;
	}
	ok($pointwise, 'merged series: each point is the sum of the instances\' points');

	# the union of the -l logs, nearest rank
	my @lat;
	for my $n (1 .. 3)
	{
		for my $f (glob("i$n/log.*"))
		{
			push @lat, map { (split / /)[2] } split /\n/, PgbTest::slurp($f);
		}
	}
	@lat = sort { $a <=> $b } @lat;
	is(scalar(@lat), $processed, 'the union of the logs has every transaction');
	for my $p (50, 90, 99)
	{
		my $exact = $lat[ max(1, POSIX::ceil($p * @lat / 100)) - 1 ];
		my $got = $m->{latency_ms}{percentiles}{"p$p"} * 1000;
		cmp_ok(abs($got - $exact), '<=', $exact / 256 + 1,
			"merged p$p: $got us vs $exact us from the union of the logs");
	}
}

# ---- nothing left behind -------------------------------------------------------------

is($node->psql(q{SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'}), '0',
	'no advisory lock left');

done_testing();
