# run_basic.pl — benchmark runs against a real cluster: the builtin
# scripts in the three protocols with -c/-j/-t/-T, the exact report lines,
# the vacuum messages, scale detection, and what the runs do to the
# database (tpcb-like keeps the balances consistent).  Where the system
# pgbench is installed, the same command lines are also run through it and
# the outputs must agree once timings are masked.
use strict;
use warnings;

use File::Temp qw(tempdir);
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $system = system_pgbench_path();

my $dir = tempdir('pgbrun_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

# The report of a run without failures, as pgbench 16 prints it.
sub report
{
	my (%p) = @_;
	my $count = $p{duration}
	  ? "duration: $p{duration} s\nnumber of transactions actually processed: $p{processed}\n"
	  : "number of transactions per client: $p{per_client}\n"
	  . "number of transactions actually processed: $p{processed}/$p{processed}\n";
	return "pgbench (VERSION)\n"
	  . "transaction type: $p{type}\n"
	  . "scaling factor: " . ($p{scale} // 1) . "\n"
	  . "query mode: " . ($p{mode} // 'simple') . "\n"
	  . "number of clients: $p{clients}\n"
	  . "number of threads: $p{threads}\n"
	  . "maximum number of tries: 1\n"
	  . $count
	  . "number of failed transactions: 0 (0.000%)\n"
	  . "latency average = X ms\n"
	  . "initial connection time = X ms\n"
	  . "tps = X (without initial connection time)\n";
}

my $TPCB = '<builtin: TPC-B (sort of)>';

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables');

# ---- the banner ----------------------------------------------------------

($rc, $out, $err) = pgbench([ '-n', '-t', '1' ], env => \%env);
my $server = $node->psql('show server_version');
like($out, qr/^pgbench \(pgbench-ng \d+\.\d+\.\d+, server \Q$server\E\)\n/,
	'banner names our version and the server version');

# ---- tpcb-like in each protocol: report and database effects -------------

my $consistency_sql =
  'select (select count(*) from pgbench_history), '
  . '(select sum(abalance) from pgbench_accounts), '
  . '(select sum(bbalance) from pgbench_branches), '
  . '(select sum(tbalance) from pgbench_tellers), '
  . '(select sum(delta) from pgbench_history)';

for my $row (
	[ 'simple',   1 ],
	[ 'extended', 1 ],
	[ 'prepared', 1 ],
	[ 'simple',   2 ],
	[ 'prepared', 4 ])
{
	my ($mode, $threads) = @$row;
	my $name = "tpcb-like -M $mode -c 4 -j $threads -t 100";

	# balances start at zero so that every sum equals the sum of deltas
	$node->psql('update pgbench_accounts set abalance = 0 where abalance <> 0; '
		  . 'update pgbench_branches set bbalance = 0; '
		  . 'update pgbench_tellers set tbalance = 0');
	($rc, $out, $err) = pgbench([ '-M', $mode, '-c', '4', '-j', $threads, '-t', '100' ],
		env => \%env);
	is($rc, 0, "$name: exit code");
	is(mask_timings($out),
		report(type => $TPCB, mode => $mode, clients => 4, threads => $threads,
			per_client => 100, processed => 400),
		"$name: report");
	is($err, "starting vacuum...end.\n", "$name: vacuum message only");

	my ($history, $a, $b, $t, $delta) = split /\|/, $node->psql($consistency_sql);
	is($history, 400, "$name: one history row per transaction");
	ok($a == $delta && $b == $delta && $t == $delta,
		"$name: balances agree ($a, $b, $t, $delta)");
}

# ---- other builtins, threads capped by clients, -v, -s ignored ------------

($rc, $out, $err) = pgbench([ '-S', '-c', '2', '-j', '4', '-t', '10', '-v' ], env => \%env);
is($rc, 0, 'select-only -j 4 -c 2: exit code');
is(mask_timings($out),
	report(type => '<builtin: select only>', clients => 2, threads => 2,
		per_client => 10, processed => 20),
	'select-only: threads capped at the number of clients');
is($err, "starting vacuum...end.\nstarting vacuum pgbench_accounts...end.\n",
	'-v also vacuums pgbench_accounts');

($rc, $out, $err) = pgbench([ '-N', '-n', '-t', '5', '-s', '7' ], env => \%env);
is($rc, 0, 'simple-update with -s: exit code');
like($out, qr/^transaction type: <builtin: simple update>\nscaling factor: 1\n/m,
	'simple-update: scale read from pgbench_branches');
is($err,
	"pgbench: warning: scale option ignored, using count from pgbench_branches table (1)\n",
	'-s with a builtin script: the warning, and -n: no vacuum');

# ---- -T -------------------------------------------------------------------

# the slack beyond 2 s stretches with what a trivial run costs now
my @shape = ('-n', '-S', '-c', '3', '-j', '2');
my $o1 = overhead_of([ @shape, '-t', '1' ], env => \%env);
my $elapsed;
($rc, $out, $err, $elapsed) = timed_pgbench([ @shape, '-T', '2' ], env => \%env);
my $limit = late_bound(2, 3, $o1, overhead_of([ @shape, '-t', '1' ], env => \%env));
is($rc, 0, '-T 2: exit code');
my ($processed) = $out =~ /^number of transactions actually processed: (\d+)$/m;
ok(defined $processed && $processed > 0, '-T 2: transactions were processed');
is(mask_timings($out),
	report(type => '<builtin: select only>', clients => 3, threads => 2,
		duration => 2, processed => $processed // 0),
	'-T 2: report');
ok($elapsed >= 1 && $elapsed <= $limit,
	sprintf('-T 2 takes about two seconds (%.2f s in [1, %.2f])', $elapsed, $limit));

# ---- custom scripts, -r, several scripts -----------------------------------

write_file('one.sql', "\\set x 2\nSELECT :x;\n");
($rc, $out, $err) = pgbench([ '-n', '-t', '3', '-c', '2', '-r', '-f', 'one.sql' ], env => \%env);
is($rc, 0, '-r: exit code');
is(mask_timings($out),
	report(type => 'one.sql', clients => 2, threads => 1, per_client => 3, processed => 6)
	  . "statement latencies in milliseconds and failures:\n"
	  . "         X           0  \\set x 2\n"
	  . "         X           0  SELECT :x;\n",
	'-r: per-command lines');

($rc, $out, $err) = pgbench(
	[ '-n', '-t', '10', '-c', '1', '-f', 'one.sql@1', '-b', 'select-only@0', '--random-seed=3' ],
	env => \%env);
is($rc, 0, 'two scripts: exit code');
like($out, qr/^transaction type: multiple scripts$/m, 'two scripts: transaction type');
like($out,
	qr/^SQL script 1: one\.sql\n - weight: 1 \(targets 100\.0% of total\)\n - 10 transactions \(100\.0% of total, tps = [\d.]+\)\n - number of failed transactions: 0 \(0\.000%\)\n - latency average = [\d.]+ ms\n - latency stddev = [\d.]+ ms\n/m,
	'two scripts: first script section');
like($out,
	qr/^SQL script 2: <builtin: select only>\n - weight: 0 \(targets 0\.0% of total\)\n - 0 transactions \(0\.0% of total, tps = 0\.000000\)\n - number of failed transactions: 0 \(NaN%\)\n\z/m,
	'two scripts: a script never chosen');

# ---- the same command lines through the system pgbench ---------------------

SKIP:
{
	skip 'no system pgbench to compare with', 1 unless $system;

	write_file('vars.sql', "\\set a random(1, 100)\nSELECT :a, :client_id, :scale;\n");
	my @rows = (
		[ '-n', '-t', '5', '-c', '2' ],
		[ '-n', '-t', '5', '-c', '3', '-j', '3', '-S', '-M', 'extended' ],
		[ '-n', '-t', '5', '-c', '2', '-N', '-M', 'prepared', '-r' ],
		[ '-t', '2', '-f', 'vars.sql', '-D', 'scale=9' ],
		[ '-n', '-t', '4', '-c', '2', '-f', 'vars.sql', '-M', 'prepared', '-r' ],
		[ '-n', '-t', '3', '-S', '-s', '2' ],
		[ '-n', '-t', '5', '-R', '1000', '-S' ],
		# a limit no transaction reaches however loaded the machine: the
		# late and skipped counts (not masked) are 0 in both runs
		[ '-n', '-t', '5', '-R', '1000', '-L', '10000', '-S' ],
		[ '-n', '-t', '5', '-L', '10000', '-S' ],
		[ '-n', '-t', '5', '-C', '-c', '2', '-S' ],
	);
	same_as_system($_, env => \%env) for @rows;
}

# ---- partitions found in the database show in the report header ----------

for my $method ('range', 'hash')
{
	($rc, $out, $err) = pgbench([ '-i', '-q', '--partitions=3', "--partition-method=$method" ],
		env => \%env);
	is($rc, 0, "initialize with 3 $method partitions");
	($rc, $out, $err) = pgbench([ '-n', '-S', '-t', '2' ], env => \%env);
	is($rc, 0, "$method partitions: exit code");
	like($out, qr/^scaling factor: 1\npartition method: $method\npartitions: 3\nquery mode: simple\n/m,
		"$method partitions: the report header names them");
}
($rc, $out, $err) = pgbench([ '-n', '-f', 'one.sql', '-t', '1' ], env => \%env);
unlike($out, qr/partition/, 'a custom script: no partition lines');

$node->stop;
done_testing();
